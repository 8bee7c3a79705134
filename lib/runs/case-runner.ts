/**
 * The case runner the executor calls for each case (./executor.ts): the case's files processed,
 * the conversation with the agent, the evaluation, and a CaseOutcome with every LLM call
 * recorded. What a run's cases share (models, keys, the call cache) is loaded once per run by
 * ./run-resources.ts. Agent and judge failures never throw: they become an `error` outcome.
 */
import "server-only";
import { LRUCache } from "lru-cache";
import { logger } from "@/lib/logger";
import { DomainError } from "@/lib/errors";
import { ExecutionStats, toEvalLlm, type CallRecord } from "@/lib/llm";
import { runConversation, type AgentRuntime } from "@/lib/conversation";
import { evaluateCase, type EvalLlm } from "@/lib/evaluation";
import { testCaseFields, type TestCaseData } from "@/lib/test-cases/schemas";
import { env } from "@/lib/env";
import { processCaseFiles, type ProcessedCaseFiles } from "@/lib/files/processing";
import { fileName, layoutCaseFiles, type CaseFilesPrompt } from "@/lib/files/layout";
import { mapStrings } from "@/lib/runs/truncate";
import {
  errorOutcome,
  type AgentStats,
  type CaseJob,
  type CaseOutcome,
  type CaseRunner,
  type LlmCallRecord,
  type RunContext,
  type StageReporter,
} from "@/lib/runs/execution-types";
import {
  agentClient,
  agentForCase,
  loadResources,
  metricModel,
  substituteDeep,
  type CaseRunnerOptions,
  type RunResources,
} from "@/lib/runs/run-resources";
import { withRateLimitWaits } from "@/lib/rate-limits";
import type { CaseStage } from "@/lib/runs/dto";
import { caseCost, costPart, type CostBreakdown, type PricedCall, type Prices } from "@/lib/runs/cost";

export type { CaseRunnerOptions } from "@/lib/runs/run-resources";

const RESOURCE_CACHE_SIZE = 50;

/**
 * Runs one case end to end: converse with the agent (mocked tools, simulated user), evaluate
 * (checks, tool calls, outcome judge, metrics, pass rule) and return everything the executor
 * persists — including every LLM call with its exact request and raw response.
 */
export function createCaseRunner(opts: CaseRunnerOptions = {}): CaseRunner {
  const resources = new LRUCache<string, Promise<RunResources>>({ max: RESOURCE_CACHE_SIZE });

  function resourcesFor(run: RunContext): Promise<RunResources> {
    let r = resources.get(run.id);
    if (!r) {
      r = loadResources(run, opts);
      r.catch(() => resources.delete(run.id));
      resources.set(run.id, r);
    }
    return r;
  }

  // A call waiting for the provider's rate limit shows as the case's stage until it goes out.
  return (job: CaseJob, run: RunContext, signal: AbortSignal, reportStage?: StageReporter): Promise<CaseOutcome> => {
    const stages = stageTracker(reportStage);
    return withRateLimitWaits(stages.waiting, () => runCase(job, run, signal, stages.report));
  };

  async function runCase(job: CaseJob, run: RunContext, signal: AbortSignal, report: StageReporter): Promise<CaseOutcome> {
    const calls: LlmCallRecord[] = [];
    // The simulator's and the judge's calls with what they used, priced by the model that answered (a metric can have its own).
    const priced: PricedCall[] = [];
    let prices = new Map<string, Prices>();
    const onRecord = (r: CallRecord) => {
      calls.push(toCallRecord(r));
      if (r.purpose !== "agent") priced.push({ purpose: r.purpose, usage: r.usage ?? null, prices: prices.get(r.endpointId) ?? null });
    };
    let res: RunResources;
    try {
      res = await resourcesFor(run);
      prices = res.prices;
    } catch (err) {
      // A missing agent or model configuration (or an undecryptable key) fails every case the
      // same way: the executor fails the run once instead. Anything else may be passing.
      const message = configMessage(err);
      return {
        ...errorOutcome("config", message),
        stage: "agent_failed",
        llmCalls: calls,
        ...(err instanceof DomainError ? { runError: message } : {}),
      };
    }
    const parsedCase = testCaseFields.safeParse(job.caseSnapshot);
    if (!parsedCase.success) return { ...errorOutcome("config", "The case snapshot is not a valid test case"), stage: "agent_failed" };
    const testCase: TestCaseData = parsedCase.data;
    const caseId = (job.caseSnapshot as { id?: string }).id ?? job.caseResultId;

    if (testCase.persona && !res.simulator) {
      return {
        ...errorOutcome(
          "config",
          "This multi-turn case needs a simulated user, but the suite has no judge or simulator model configuration",
        ),
        stage: "agent_failed",
      };
    }
    // The variables model: this case's own resolution when it has one (run values otherwise), with its effects.
    const caseVariables = (job.resolvedVariables as { values?: Record<string, unknown> } | null | undefined)?.values ?? res.variables;
    let agent: AgentRuntime;
    try {
      agent = await agentForCase(res, caseVariables);
    } catch (err) {
      return { ...errorOutcome("config", configMessage(err)), stage: "agent_failed", llmCalls: calls };
    }

    // The execution model: files are processed before the conversation (the claim set `processing_files`);
    // a file that fails makes the case an error and the agent is never called.
    let files: CaseFilesPrompt | null = null;
    let processedFiles: ProcessedCaseFiles["processed"] | null = null;
    if (testCase.files && testCase.files.length > 0) {
      const result = await processCaseFiles(testCase.files, { workspaceId: run.workspaceId, signal });
      processedFiles = result.processed;
      if (signal.aborted) return { ...errorOutcome("cancelled", "Run cancelled while this case was running"), processedFiles };
      const failure = filesFailure(result, agent);
      if (failure) return { ...errorOutcome("files", failure), stage: "files_failed", processedFiles };
      report("files_ready");
      files = layoutCaseFiles(result.processed, agent.kind === "chat" ? result.images : [], { maxChars: env.ASSAY_FILES_MAX_CHARS });
      report("executing_agent");
    }

    const conversation = await runConversation({
      agent,
      testCase: {
        id: caseId,
        name: testCase.name,
        persona: testCase.persona,
        initial_message: testCase.initial_message,
        user_context: substituteDeep(testCase.user_context, caseVariables),
        max_turns: testCase.max_turns,
      },
      variables: caseVariables,
      runId: run.id,
      // runConversation reports its calls through `onRecord` itself: clients get no sink here.
      simulator: res.simulator ? res.simulator() : null,
      agentClient: agent.kind === "chat" ? agentClient(agent.endpoint, res.agentRetry) : undefined,
      ...(res.agentRetry ? { retryPolicy: res.agentRetry, callTimeoutMs: res.agentRetry.timeoutMs } : {}),
      safetyCap: res.safetyCap,
      signal,
      onRecord,
      files,
    });
    // The requests keep their text; image data URLs are not logged (they can be megabytes each).
    if (files?.images.length) for (const c of calls) c.request = withoutDataUrls(c.request);
    const agentStats = agentStatsOf(conversation, calls, agent);
    const costNow = () => costOfCase(res, agent, conversation, priced);
    if (conversation.error?.type === "cancelled" || signal.aborted) {
      return {
        ...errorOutcome("cancelled", "Run cancelled while this case was running"),
        transcript: conversation.transcript,
        actualResponse: conversation.finalResponse || null,
        turns: conversation.turns,
        llmCalls: calls,
        agentStats,
        processedFiles,
        cost: costNow(),
      };
    }
    if (!conversation.error) report("agent_complete");
    report("evaluating");

    const judge: EvalLlm = res.judge ? toEvalLlm(res.judge(onRecord), { signal }) : missingJudge;
    const evaluation = await evaluateCase({
      testCase: { ...testCase, expected_outcomes: substituteDeep(testCase.expected_outcomes, caseVariables) },
      transcript: conversation.transcript,
      finalResponse: conversation.finalResponse,
      actualToolCalls: conversation.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })),
      conversationError: conversation.error ? { type: conversation.error.type, message: conversation.error.message } : null,
      metrics: res.metrics,
      llm: judge,
      metricLlm: async (modelConfigId) => toEvalLlm((await metricModel(res, modelConfigId))(onRecord), { signal }),
    });
    return {
      status: evaluation.status,
      transcript: conversation.transcript,
      actualResponse: conversation.finalResponse || null,
      checkResults: evaluation.check_results,
      toolCallResults: evaluation.tool_call_results,
      outcomeResults: evaluation.outcome_results,
      metricResults: evaluation.metric_results,
      promptTokens: conversation.promptTokens,
      completionTokens: conversation.completionTokens,
      latencyMs: conversation.agentLatencyMs,
      // The A/B engine: retry_count is the agent's own; judge, simulator, check and metric retries (transport
      // retries, and metric re-asks under retry_on_failure) are counted apart.
      retryCount: agentStats.retry_count,
      evaluatorRetryCount:
        calls.reduce((a, c) => a + (c.purpose === "agent" ? 0 : Math.max(0, c.attempts - 1)), 0) +
        evaluation.metric_results.reduce((a, m) => a + m.retry_count, 0),
      agentStats,
      turns: conversation.turns,
      // Errors only (the execution model's `errors`); a failed case's reasons and a safety cap stop are reported apart.
      errorMessage: conversation.error ? conversation.error.message : evaluation.judge_error,
      errorType: conversation.error ? conversation.error.type : evaluation.judge_error ? "judge" : null,
      failureReasons: evaluation.failure_reasons,
      endReason: conversation.endReason,
      llmCalls: calls,
      stage: conversation.error ? "agent_failed" : evaluation.judge_error ? "evaluation_failed" : "complete",
      processedFiles,
      cost: costNow(),
    };
  }
}

/**
 * The case's stage reports, remembering the last one: a rate-limit wait reports
 * `waiting_rate_limit` and, when the request goes out, the stage the case was in.
 */
function stageTracker(reportStage: StageReporter | undefined) {
  // The claim leaves a case in executing_agent (or processing_files, which makes no model call):
  // a call can first wait in the conversation, before the runner reported anything.
  let current: CaseStage = "executing_agent";
  const report: StageReporter = (stage) => {
    current = stage;
    reportStage?.(stage);
  };
  const waiting = (isWaiting: boolean) => {
    reportStage?.(isWaiting ? "waiting_rate_limit" : current);
  };
  return { report, waiting };
}

/**
 * Why the case cannot run with its files: a file that failed to process, or an image for a chat
 * agent whose model configuration is not marked vision-capable (never silently dropped).
 */
function filesFailure(result: ProcessedCaseFiles, agent: AgentRuntime): string | null {
  const n = result.processed.length;
  const label = (i: number) => `File ${i + 1} of ${n} (${fileName(result.processed[i]!)})`;
  // Processing errors name the file themselves (or its file:<id> when it is gone).
  const errors = result.processed.flatMap((p, i) => (p.error ? [`File ${i + 1} of ${n}: ${p.error}`] : []));
  if (errors.length) return errors.join("; ");
  if (agent.kind === "chat" && !agent.supportsVision) {
    const i = result.processed.findIndex((p) => p.original.type === "image");
    if (i >= 0) {
      const model = agent.modelConfigName ?? agent.endpoint.model;
      return `${label(i)} is an image but the model configuration "${model}" is not marked vision-capable`;
    }
  }
  return null;
}

const DATA_URL = /^data:image\/[\w.+-]+;base64,/;

/** Image data URLs in a logged request replaced by their media type and size. */
function withoutDataUrls(request: unknown): unknown {
  return mapStrings(request, (s) =>
    DATA_URL.test(s) ? `${s.slice(0, s.indexOf(",") + 1)}… [${s.length.toLocaleString("en-US")} characters: the image is not stored]` : s,
  );
}

/**
 * The case's cost: the agent's tokens (as the conversation counted them, HTTP agents included) at
 * its model's snapshotted prices, the simulator's and the judge's calls each at the prices of the
 * model that answered. An HTTP agent, or a model named by a case's AIConfiguration, has no
 * snapshotted price: its part is unknown.
 */
function costOfCase(
  res: RunResources,
  agent: AgentRuntime,
  conversation: { promptTokens: number; completionTokens: number },
  priced: PricedCall[],
): CostBreakdown {
  const agentPrices = agent.kind === "chat" ? (res.prices.get(agent.endpoint.id) ?? null) : null;
  const agentUsage = { prompt_tokens: conversation.promptTokens, completion_tokens: conversation.completionTokens };
  const byPart = (part: "simulator" | "judge") => priced.filter((c) => costPart(c.purpose) === part);
  const modelPrices = (id: string | null) => (id ? (res.prices.get(id) ?? null) : null);
  return caseCost({
    agent: { calls: [{ purpose: "agent", usage: agentUsage, prices: agentPrices }], prices: agentPrices },
    simulator: { calls: byPart("simulator"), prices: modelPrices(res.simulatorModelId) },
    judge: { calls: byPart("judge"), prices: modelPrices(res.judgeModelId) },
  });
}

const missingJudge: EvalLlm = {
  model: "none",
  json: () => Promise.reject(new Error("The suite has no judge model configuration")),
  embed: () => Promise.reject(new Error("The suite has no judge model configuration")),
};

function configMessage(err: unknown): string {
  if (err instanceof DomainError) return err.message;
  logger.error({ err }, "could not prepare a run");
  return "Could not prepare the run's agent and models";
}

function toCallRecord(r: CallRecord): LlmCallRecord {
  return {
    attemptErrors: r.attemptErrors,
    errorType: r.errorType,
    startedAt: r.startedAt,
    purpose: r.purpose,
    model: r.model,
    request: r.request,
    response: r.response,
    error: r.error,
    attempts: r.attempts,
    latencyMs: r.latencyMs,
    cached: r.cached,
  };
}

/**
 * The A/B engine's AgentResponse extras of one execution, from the agent calls only (never the
 * simulator or judge): exact latency and per-turn latencies, retries, the ExecutionStats of those
 * calls, the model that answered and when the execution started.
 */
function agentStatsOf(
  conversation: { agentLatencyExactMs: number; turnLatenciesMs: number[] },
  calls: LlmCallRecord[],
  agent: AgentRuntime,
): AgentStats {
  const stats = new ExecutionStats();
  let retries = 0;
  let model: string | null = null;
  let startedAt: string | null = null;
  for (const c of calls) {
    if (c.purpose !== "agent") continue;
    stats.record({
      purpose: c.purpose,
      attempts: c.attempts,
      attemptErrors: c.attemptErrors ?? [],
      errorType: c.errorType ?? null,
      cached: c.cached,
    });
    retries += Math.max(0, c.attempts - 1);
    model ??= c.model;
    startedAt ??= c.startedAt ?? null;
  }
  // Microsecond precision: far below the A/B engine's ±10 ms, and a value with three decimals survives
  // every JSON and jsonb round trip bit for bit (an export re-imported gives identical statistics).
  const micro = (ms: number) => Math.round(ms * 1000) / 1000;
  return {
    latency_ms: micro(conversation.agentLatencyExactMs),
    turn_latencies_ms: conversation.turnLatenciesMs.map(micro),
    retry_count: retries,
    model: model ?? (agent.kind === "chat" ? agent.endpoint.model : "http"),
    timestamp: startedAt,
    stats: stats.data,
  };
}
