/**
 * Public types of the evaluation library. Result types are the public snake_case JSON stored
 * as-is on a case result (check_results, tool_call_results, outcome_results, metric_results).
 */
import type { TranscriptMessage as ConversationMessage } from "@/lib/conversation/types";
import type { Check, TestCaseData } from "@/lib/test-cases/schemas";

export type { MetricConfig, MetricConfigInput } from "./schemas";

/** One message of a case result transcript (public JSON shape), without the display-only file attachments. */
export type TranscriptMessage = Omit<ConversationMessage, "attachments">;

export type EvalChatMessage = { role: "system" | "user" | "assistant"; content: string };

export type EvalPurpose = "judge" | "metric" | "check";

export type EvalJsonRequest = {
  purpose: EvalPurpose;
  messages: EvalChatMessage[];
  /** response_format.json_schema.name (matches ^[A-Za-z0-9_-]{1,64}$). */
  schemaName: string;
  schema: Record<string, unknown>;
  timeoutMs?: number;
};

/**
 * How the evaluators reach a model. The executor adapts its LLM client to this; tests use a fake.
 * `json` performs a chat completion with `response_format: {type: "json_schema", json_schema:
 * {name: schemaName, schema, strict: true}}` at temperature 0 and returns the raw content; it
 * throws on transport errors after its own retries. The evaluators parse and validate `raw`
 * themselves (fail closed).
 */
export interface EvalLlm {
  /** Model name, reported as `model_used` and part of cache keys. */
  model: string;
  json(req: EvalJsonRequest): Promise<{ raw: string }>;
  embed(texts: string[]): Promise<number[][]>;
}

/** A tool call the agent made; `arguments` as sent (a JSON string) or already parsed. */
export type ActualToolCall = { name: string; arguments: string | Record<string, unknown> | null | undefined };

export type ConversationError = { type: string; message: string };

/** One expected_tool_calls entry (TestCaseData's ExpectedToolCall, with optional keys). */
export type ToolExpectation = { tool: string; expected_params?: Record<string, unknown> | null; forbidden?: boolean };

/** The parts of a test case (snapshot) the evaluators read; a TestCaseData is one. */
export type EvaluatedCase = Pick<TestCaseData, "checks" | "mode" | "expected_outcomes" | "evaluation_criteria_override" | "ground_truth"> &
  Partial<Pick<TestCaseData, "name" | "initial_message" | "evaluations">> & { expected_tool_calls: readonly ToolExpectation[] | null };

export type CheckType = Check["type"];

/** The reference schema's CheckResult, snake_case. */
export type CheckResult = {
  check_index: number;
  check_type: CheckType;
  passed: boolean;
  details: {
    matched_phrases?: string[];
    missing_phrases?: string[];
    case_sensitive?: boolean;
    similarity_score?: number;
    threshold?: number;
    /** llm_judge verdict: "pass" | "fail" */
    judgement?: string;
    reasoning?: string;
    /** The evaluator could not decide (embedding/judge failure): a judge error, not an agent failure. */
    error?: string;
  };
};

export type ToolCallResults = {
  passed: boolean;
  ordered: boolean;
  matched: {
    tool: string;
    expected_params: Record<string, unknown> | null;
    actual_arguments: unknown;
    index_expected: number;
    index_actual: number;
  }[];
  missing: { tool: string; expected_params: Record<string, unknown> | null; reason: string }[];
  unexpected: { tool: string; arguments: unknown }[];
  forbidden_called: { tool: string; arguments: unknown }[];
};

export type OutcomeResult = {
  /** Server-generated key given to the judge: "o1", "o2", ... */
  key: string;
  label: string;
  expected: unknown;
  passed: boolean;
  reasoning: string;
  /** Turn numbers the judge cites (turn N: the N-th user message and the agent's reply). */
  evidence_turns: number[];
  /**
   * "exchange" on every result judged with turns as above. Absent on results stored before: their
   * evidence_turns are 1-based transcript positions (the system prompt was turn 1); `citedTurns`
   * in ./transcript.ts maps them.
   */
  turn_numbering?: "exchange";
};

/**
 * The execution model's MetricResult plus the judge's raw score and reasoning. Results stored before thresholds
 * moved to the metric's scale have `score`/`threshold` on 0..1 and no `normalized_*` keys.
 */
export type MetricResult = {
  metric_name: string;
  /** The judge's score on 1..scale, null on error. */
  score: number | null;
  /** `score` normalised to 0..1 (`(score - 1) / (scale - 1)`), null on error. */
  normalized_score: number | null;
  /** On the metric's scale, compared with `score` (null: informational). */
  threshold: number | null;
  /** `threshold` normalised like the score (clamped to 0..1). */
  normalized_threshold: number | null;
  /**
   * Whether the score reached the threshold; null when the metric could not be evaluated (`error`
   * is set): an error is not a failed metric. It decides the case only under `fail_on_error`,
   * which makes the case an error (lib/evaluation/pass-rule.ts).
   */
  passed: boolean | null;
  scale: number | null;
  error: string | null;
  retry_count: number;
  evaluation_time_ms: number;
  model_used: string | null;
  /** The judge's answer on 1..scale, null on error (the same as `score`; kept for older readers). */
  raw_score: number | null;
  reasoning: string | null;
};

export type CaseEvaluationStatus = "passed" | "failed" | "error";

export type CaseEvaluation = {
  status: CaseEvaluationStatus;
  /** Short human reason when not passed ("2 of 3 outcomes not met; missing tool call search_orders"). */
  reason: string | null;
  /** Why a failed case failed, one entry per reason (empty unless `status` is failed: errors are not reasons). */
  failure_reasons: string[];
  check_results: CheckResult[];
  /** null when the case has no tool call expectations. */
  tool_call_results: ToolCallResults | null;
  outcome_results: OutcomeResult[];
  metric_results: MetricResult[];
  /** Evaluator failures (judge, checks, fail_on_error metrics); distinct from agent failures. */
  judge_error: string | null;
};
