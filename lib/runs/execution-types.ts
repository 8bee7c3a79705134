/**
 * What runs through the executor (./executor.ts): a claimed case (`CaseJob`), the run it belongs
 * to (`RunContext`), the runner that executes it (`CaseRunner`, ./case-runner.ts) and what the
 * runner returns (`CaseOutcome`), which the result writer (./result-writer.ts) stores. Declared
 * apart from the executor so the modules below it (result writer, truncation, comparison pairs)
 * need not import it.
 */
import type { CallRecord } from "@/lib/llm/types";
import type { ExecutionStatsJson } from "@/lib/llm/stats";
import type { CaseStage } from "@/lib/runs/dto";
import type { ProcessedFileInput } from "@/lib/files/types";
import type { CostBreakdown } from "@/lib/runs/cost";

/** A claimed case: everything a runner needs, loaded from the run and the case snapshot. */
export type CaseJob = {
  caseResultId: string;
  runId: string;
  workspaceId: string;
  position: number;
  variant: "baseline" | "variant";
  caseSnapshot: unknown;
  attempts: number;
  /** The variables model {values, sources} of this case (null: the run's values apply). */
  resolvedVariables?: unknown;
};

export type RunContext = {
  id: string;
  workspaceId: string;
  concurrency: number;
  agentSnapshot: unknown;
  evalSnapshot: unknown;
  variantSnapshot: unknown;
  resolvedVariables: unknown;
};

export type LlmCallRecord = {
  /** Error type of each failed attempt, the final error type, when the call started (the A/B engine stats). */
  attemptErrors?: CallRecord["attemptErrors"];
  errorType?: CallRecord["errorType"];
  startedAt?: string;
  purpose: string;
  model: string | null;
  request: unknown;
  response: string | null;
  error: string | null;
  attempts: number;
  latencyMs: number;
  cached: boolean;
};

export type CaseOutcome = {
  status: "passed" | "failed" | "error" | "skipped";
  transcript: unknown[];
  actualResponse: string | null;
  checkResults: unknown[];
  toolCallResults: unknown | null;
  outcomeResults: unknown[];
  metricResults: unknown[];
  promptTokens: number;
  completionTokens: number;
  latencyMs: number | null;
  retryCount: number;
  turns: number;
  errorMessage: string | null;
  errorType: string | null;
  /** Why a failed case failed (errors stay in errorMessage); how the conversation ended; evaluator (non-agent) retries. */
  failureReasons?: string[];
  endReason?: string | null;
  evaluatorRetryCount?: number;
  llmCalls: LlmCallRecord[];
  /** The A/B engine's AgentResponse extras, measured on the agent calls only (stored in `CaseResult.agentStats`). */
  agentStats?: AgentStats | null;
  /** The execution model final execution state (complete, files_failed, agent_failed, evaluation_failed); absent: the live stage stays. */
  stage?: CaseStage | null;
  /** The execution model's TestResult.processed_files (null: the case has no files). */
  processedFiles?: ProcessedFileInput[] | null;
  /** What the case's LLM calls cost at the run's snapshotted prices (./cost.ts); absent: unknown (stored as null). */
  cost?: CostBreakdown | null;
  /**
   * Set when the run itself cannot proceed (its agent or a model configuration was deleted):
   * the executor then fails the run with this message instead of trying every other case.
   */
  runError?: string;
};

/** `CaseResult.agentStats`: what the A/B engine records per execution beyond Assay's columns. */
export type AgentStats = {
  /** Sum of the agent calls' durations, float milliseconds (the whole-ms `latencyMs` column rounds it). */
  latency_ms: number;
  turn_latencies_ms: number[];
  /** Retries of the agent calls only. */
  retry_count: number;
  model: string;
  /** When the first agent call started (ISO 8601). */
  timestamp: string | null;
  stats: ExecutionStatsJson;
};

/** Reports a case's live the execution model stage (processing_files → … → evaluating); written in batches, never per call. */
export type StageReporter = (stage: CaseStage) => void;

export type CaseRunner = (job: CaseJob, run: RunContext, signal: AbortSignal, reportStage?: StageReporter) => Promise<CaseOutcome>;

/** The outcome of a case that could not run: `errorType` and `message` are stored on its result. */
export function errorOutcome(errorType: string, message: string): CaseOutcome {
  return {
    status: "error",
    transcript: [],
    actualResponse: null,
    checkResults: [],
    toolCallResults: null,
    outcomeResults: [],
    metricResults: [],
    promptTokens: 0,
    completionTokens: 0,
    latencyMs: null,
    retryCount: 0,
    turns: 0,
    errorMessage: message,
    errorType,
    llmCalls: [],
  };
}
