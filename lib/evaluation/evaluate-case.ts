/** Evaluates one finished conversation: checks, tool calls, outcomes and metrics, then the pass rule. */
import { evaluateChecks, evaluateContainsPhrases } from "./checks";
import { failedOutcomes, judgeOutcomes, outcomeKeys, type OutcomeJudgement } from "./judge";
import type { EvalCache } from "./llm-json";
import type { MetricInputs } from "./metric-prompts";
import { evaluateMetrics, metricsForCase, unknownMetricResult } from "./metrics";
import { decideStatus } from "./pass-rule";
import type { MetricConfig } from "./schemas";
import { matchToolCalls } from "./tool-calls";
import { lastUserMessage, renderTranscript, toolResultsText } from "./transcript";
import type {
  ActualToolCall,
  CaseEvaluation,
  CheckResult,
  ConversationError,
  EvalLlm,
  EvaluatedCase,
  MetricResult,
  TranscriptMessage,
} from "./types";

export type EvaluateCaseInput = {
  testCase: EvaluatedCase;
  transcript: TranscriptMessage[];
  finalResponse: string | null;
  /** The agent's tool calls; taken from the transcript's assistant messages when omitted. */
  actualToolCalls?: ActualToolCall[];
  conversationError?: ConversationError | null;
  /** The suite's metrics (disabled ones are skipped unless the case's `evaluations` names them). */
  metrics: readonly MetricConfig[];
  /** The suite's judge model (outcomes, checks, metrics, embeddings). */
  llm: EvalLlm;
  /** Resolves a metric's model override (model configuration id). */
  metricLlm?: (modelConfigId: string) => EvalLlm | Promise<EvalLlm>;
  /** The run's cache (createEvalCache()); calls are not cached without it. */
  cache?: EvalCache | null;
  /** Expected tool calls must appear in order (default false). */
  toolCallsOrdered?: boolean;
  /** Passed to the judge calls of outcomes and llm_judge checks. */
  judgeTimeoutMs?: number;
  /**
   * Run the LLM evaluations even when the conversation errored (default false: only the
   * deterministic ones run, since the case is an error anyway).
   */
  evaluateAfterError?: boolean;
};

export const NOT_EVALUATED = "Not evaluated: the conversation ended with an error";

/** The agent's tool calls as recorded in the transcript. */
export function toolCallsFromTranscript(transcript: readonly TranscriptMessage[]): ActualToolCall[] {
  return transcript.flatMap((m) =>
    m.role === "assistant" ? (m.tool_calls ?? []).map((c) => ({ name: c.name, arguments: c.arguments })) : [],
  );
}

function deterministicChecks(testCase: EvaluatedCase, response: string | null): CheckResult[] {
  return testCase.checks.map((check, i) =>
    check.type === "contains_phrases"
      ? evaluateContainsPhrases(check, response, i)
      : { check_index: i, check_type: check.type, passed: false, details: { reasoning: NOT_EVALUATED } },
  );
}

export async function evaluateCase(input: EvaluateCaseInput): Promise<CaseEvaluation> {
  const { testCase, transcript, finalResponse, llm, cache } = input;
  const skipLlm = Boolean(input.conversationError) && !input.evaluateAfterError;
  const question = lastUserMessage(transcript) ?? testCase.initial_message ?? null;

  const toolCallResults = matchToolCalls(testCase.expected_tool_calls, input.actualToolCalls ?? toolCallsFromTranscript(transcript), {
    ordered: input.toolCallsOrdered,
  });

  const checksPromise: Promise<CheckResult[]> = skipLlm
    ? Promise.resolve(deterministicChecks(testCase, finalResponse))
    : evaluateChecks(testCase.checks, { response: finalResponse, question, llm, cache, timeoutMs: input.judgeTimeoutMs });

  const outcomesPromise: Promise<OutcomeJudgement> = skipLlm
    ? Promise.resolve({ results: failedOutcomes(outcomeKeys(testCase.expected_outcomes), NOT_EVALUATED), judge_error: null })
    : judgeOutcomes(
        { transcript, expectedOutcomes: testCase.expected_outcomes, criteriaOverride: testCase.evaluation_criteria_override },
        llm,
        cache,
        input.judgeTimeoutMs,
      );

  // The execution model: the case's `evaluations` (metric names) overrides the suite's metrics for this case.
  const selection = metricsForCase(input.metrics, testCase.evaluations);
  const enabledMetrics = selection.metrics;
  const metricInputs: MetricInputs = {
    conversation: renderTranscript(transcript),
    question,
    response: finalResponse,
    groundTruth: testCase.ground_truth ?? null,
    context: toolResultsText(transcript),
  };
  const metricsPromise: Promise<MetricResult[]> = skipLlm
    ? Promise.resolve([])
    : evaluateMetrics(enabledMetrics, metricInputs, { llm, metricLlm: input.metricLlm, cache });

  const [checkResults, outcomes, evaluatedMetrics] = await Promise.all([checksPromise, outcomesPromise, metricsPromise]);
  const metricResults = skipLlm ? [] : [...evaluatedMetrics, ...selection.unknown.map(unknownMetricResult)];

  const decision = decideStatus({
    conversationError: input.conversationError,
    checkResults,
    mode: testCase.mode,
    toolCallResults,
    outcomeResults: outcomes.results,
    metrics: metricResults.map((result, i) => ({ result, fail_on_error: enabledMetrics[i]?.fail_on_error ?? false })),
    outcomeJudgeError: outcomes.judge_error,
  });

  return {
    status: decision.status,
    reason: decision.reason,
    failure_reasons: decision.failure_reasons,
    check_results: checkResults,
    tool_call_results: toolCallResults,
    outcome_results: outcomes.results,
    metric_results: metricResults,
    judge_error: decision.judge_error,
  };
}
