import type { z } from "zod";
import { iso } from "@/lib/serialize";
import { maskSnapshotUrls } from "@/lib/url-secrets";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { CaseResultStatus, RunStatus } from "@/lib/runs/schemas";
import type { CaseSortKey, SortDir } from "@/lib/runs/case-sort";
import type { ProcessedFileInput } from "@/lib/files/types";
import { currentSummary } from "@/lib/runs/summary-counts";
import { costOf } from "@/lib/runs/cost";
import { humanVerdictFields } from "@/lib/review/elements";
import { failureReason, type FailedCheckSummary, type FailedOutcomeSummary } from "@/lib/runs/failure-reason";
import type {
  caseResultResource,
  caseTablePageResource,
  caseTableRowResource,
  llmCallResource,
  runCaseResource,
} from "./case-results-openapi";
import type { runChanges, runChangesResource, runResource, runSummaryComputed, verdictChange } from "./openapi";

/**
 * The run feature's public shapes: Prisma `select` constants, row → DTO mappers and the DTO
 * types the API, the pages and the client components share. No server-only imports, so client
 * components may import the types (and the pure mappers) from here. A little over 500 lines on
 * purpose: it is the one DTO module of the run feature (runs, case results, suite analytics),
 * which pages, components and the API all import; the resources themselves are in ./openapi.ts
 * and ./case-results-openapi.ts.
 */

export const runSelect = {
  id: true,
  suiteId: true,
  number: true,
  status: true,
  triggeredBy: true,
  triggeredByUserId: true,
  options: true,
  concurrency: true,
  trials: true,
  rerunOfId: true,
  resolvedVariables: true,
  agentSnapshot: true,
  variantSnapshot: true,
  totalCases: true,
  passedCases: true,
  failedCases: true,
  skippedCases: true,
  errorCases: true,
  promptTokens: true,
  completionTokens: true,
  costBreakdown: true,
  summary: true,
  reviewedCases: true,
  overturnedCases: true,
  reviewPassDelta: true,
  errorMessage: true,
  cancelRequestedAt: true,
  startedAt: true,
  completedAt: true,
  createdAt: true,
  comparisonId: true,
  armIndex: true,
  matrixId: true,
  combinationIndex: true,
  metadata: true,
  agentHash: true,
  evalHash: true,
} as const satisfies Prisma.RunSelect;

export type RunRow = Prisma.RunGetPayload<{ select: typeof runSelect }>;

/** Pass rate over executed (non-skipped) cases, 0–100, one decimal. */
export function passRate(passed: number, total: number, skipped: number): number {
  const executed = total - skipped;
  return executed > 0 ? Math.round((passed / executed) * 1000) / 10 : 0;
}

/**
 * A stored summary with human review's figures, which change after the run ended: the counters the
 * review service keeps on the run (reviewed, overturned, the passed count's change) applied to the
 * summary's own counts, so pass_rate_reviewed reads like executed_pass_rate.
 */
function withReviewFigures(summary: RunDto["summary"], r: Pick<RunRow, "reviewedCases" | "overturnedCases" | "reviewPassDelta">) {
  if (!summary || typeof summary.passed !== "number" || typeof summary.executed !== "number") return summary;
  const passed = summary.passed + r.reviewPassDelta;
  return {
    ...summary,
    reviewed: r.reviewedCases,
    overturned: r.overturnedCases,
    pass_rate_reviewed: summary.executed > 0 ? Math.round((passed / summary.executed) * 1000) / 10 : 0,
  };
}

/** "#42": how a run is named everywhere (its number within the suite). */
export function runLabel(run: { number: number }): string {
  return `#${run.number}`;
}

/**
 * A comparison's arm runs and a matrix's combination runs are experiments: they belong to their
 * comparison or matrix, never to the suite's history (trend, latest run, regression baseline).
 */
export function isExperiment(run: { comparisonId?: string | null; matrixId?: string | null }): boolean {
  return Boolean(run.comparisonId || run.matrixId);
}

/**
 * `live.rateLimitWaits`: the single-run reads count the running cases waiting for a provider's
 * rate limit; lists leave it out and say null (not counted), never a 0 that may be wrong.
 */
export function toRunDto(r: RunRow, live?: { rateLimitWaits: number }): RunDto {
  const done = r.passedCases + r.failedCases + r.skippedCases + r.errorCases;
  return {
    id: r.id,
    suite_id: r.suiteId,
    /** The run's number within its suite (#42). */
    number: r.number,
    /** True for a comparison arm or a matrix combination: not part of the suite's history. */
    experiment: isExperiment(r),
    status: r.status,
    triggered_by: r.triggeredBy,
    triggered_by_user_id: r.triggeredByUserId,
    total_cases: r.totalCases,
    passed_cases: r.passedCases,
    failed_cases: r.failedCases,
    skipped_cases: r.skippedCases,
    error_cases: r.errorCases,
    done_cases: done,
    pass_rate: passRate(r.passedCases, r.totalCases, r.skippedCases),
    prompt_tokens: r.promptTokens,
    completion_tokens: r.completionTokens,
    cost: costOf(r.costBreakdown),
    concurrency: r.concurrency,
    trials: r.trials,
    reviewed_cases: r.reviewedCases,
    overturned_cases: r.overturnedCases,
    pass_rate_reviewed: passRate(r.passedCases + r.reviewPassDelta, r.totalCases, r.skippedCases),
    rerun_of: r.rerunOfId,
    options: r.options as RunDto["options"],
    resolved_variables: r.resolvedVariables as RunDto["resolved_variables"],
    // Snapshot URLs may carry keys (userinfo, `?code=`): the executor reads the row, readers never need them.
    agent_snapshot: maskSnapshotUrls(r.agentSnapshot) as RunDto["agent_snapshot"],
    variant_snapshot: maskSnapshotUrls(r.variantSnapshot) as RunDto["variant_snapshot"],
    // Summaries stored under older counting rules read as today's (lib/runs/summary-counts.ts).
    summary: withReviewFigures(currentSummary(r.summary) as RunDto["summary"], r),
    error_message: r.errorMessage,
    cancel_requested_at: iso(r.cancelRequestedAt),
    started_at: iso(r.startedAt),
    completed_at: iso(r.completedAt),
    created_at: iso(r.createdAt)!,
    /** Set on the arm runs a comparison executed (arm 0 = baseline, 1 = variant). */
    comparison_id: r.comparisonId,
    arm_index: r.armIndex,
    matrix_id: r.matrixId,
    combination_index: r.combinationIndex,
    /** Where the run comes from, as its caller said ({commit, branch, build_url, …}). */
    metadata: (r.metadata ?? {}) as Record<string, string>,
    /** Content hashes of the agent configuration and the evaluation settings the run used. */
    agent_hash: r.agentHash,
    eval_hash: r.evalHash,
    rate_limit_waits: live ? live.rateLimitWaits : null,
  };
}
export type RunDto = z.output<typeof runResource>;

/**
 * The execution model's state machine, per case result (`CaseResult.stage`): pending →
 * processing_files → files_ready | files_failed → executing_agent → agent_complete | agent_failed
 * → evaluating → complete | evaluation_failed. A case without files starts at executing_agent.
 * `waiting_rate_limit`: a call of the running case is waiting for the provider's rate limit
 * (lib/rate-limits); the case goes back to its stage when the call goes out.
 */
export const CASE_STAGES = [
  "pending",
  "processing_files",
  "files_ready",
  "files_failed",
  "executing_agent",
  "waiting_rate_limit",
  "agent_complete",
  "agent_failed",
  "evaluating",
  "complete",
  "evaluation_failed",
] as const;
export type CaseStage = (typeof CASE_STAGES)[number];

/** Which case, arm and trial a result is, and its state: the columns every read of a result shows (the full result and the table row). */
const casePlaceSelect = {
  testCaseId: true,
  variant: true,
  position: true,
  repetition: true,
  status: true,
  stage: true,
  name: true,
  tags: true,
} as const satisfies Prisma.CaseResultSelect;
type CasePlaceRecord = Prisma.CaseResultGetPayload<{ select: typeof casePlaceSelect }>;

function toCasePlace(r: CasePlaceRecord) {
  return {
    test_case_id: r.testCaseId,
    variant: r.variant,
    position: r.position,
    trial: r.repetition,
    status: r.status,
    /** The execution model's state (live while running; final: complete, files_failed, agent_failed or evaluation_failed). */
    stage: r.stage as CaseStage,
    name: r.name,
    tags: r.tags,
  };
}

export const caseResultSelect = {
  id: true,
  runId: true,
  ...casePlaceSelect,
  processedFiles: true,
  caseSnapshot: true,
  actualResponse: true,
  responseTruncated: true,
  checkResults: true,
  toolCallResults: true,
  outcomeResults: true,
  metricResults: true,
  promptTokens: true,
  completionTokens: true,
  costBreakdown: true,
  latencyMs: true,
  durationMs: true,
  retryCount: true,
  resolvedVariables: true,
  evaluatorRetryCount: true,
  turns: true,
  errorMessage: true,
  errorType: true,
  failureReasons: true,
  endReason: true,
  humanVerdict: true,
  humanVerdictById: true,
  humanVerdictAt: true,
  startedAt: true,
  completedAt: true,
  createdAt: true,
} as const satisfies Prisma.CaseResultSelect;

/**
 * A case result with its transcript: one case (GET /case-results/{id}, the case page) or a list
 * that asked for it (`?include=transcript`). Lists, reports and the run page leave the transcript
 * column unread: it is the biggest one (up to 20,000 characters per message), and a run may have
 * thousands of cases.
 */
export const caseResultWithTranscriptSelect = { ...caseResultSelect, transcript: true } as const satisfies Prisma.CaseResultSelect;

type CaseResultRecord = Prisma.CaseResultGetPayload<{ select: typeof caseResultSelect }> & { transcript?: Prisma.JsonValue };

/** How the conversation ended (`CaseResult.endReason`); the two caps are the workspace's, not the case's. */
export type EndReason = NonNullable<CaseResultDto["end_reason"]>;

/** The execution model's `metrics_passed`/`metrics_total` of a result's metric_results. */
export function metricCounts(metricResults: unknown): { metrics_passed: number; metrics_total: number } {
  const list = Array.isArray(metricResults) ? (metricResults as { passed?: unknown }[]) : [];
  return { metrics_passed: list.filter((m) => m?.passed === true).length, metrics_total: list.length };
}

/**
 * A result's metric_results as read: a metric that could not be evaluated (`error` set) has
 * `passed: null`, also in results stored when it said `false` (lib/evaluation/metrics.ts).
 */
export function metricResultsOf(metricResults: unknown): unknown {
  if (!Array.isArray(metricResults)) return metricResults;
  return metricResults.map((m: unknown) =>
    m && typeof m === "object" && (m as { error?: unknown }).error && (m as { passed?: unknown }).passed === false
      ? { ...m, passed: null }
      : m,
  );
}

export function toCaseResultDto(r: CaseResultRecord): CaseResultDto {
  // The execution model's `errors`: only a case that errored has errors (a skipped case's note stays in error_message).
  const errors = r.status === "error" && r.errorMessage ? [r.errorMessage] : [];
  return {
    id: r.id,
    run_id: r.runId,
    ...toCasePlace(r),
    test_case: r.caseSnapshot,
    /** The execution model's TestResult.processed_files: one ProcessedFileInput per file of the case (empty without files). */
    processed_files: (Array.isArray(r.processedFiles) ? r.processedFiles : []) as unknown as ProcessedFileInput[],
    /** Present only when the row was read with its transcript (one case, or a list with `include=transcript`). */
    ...(r.transcript !== undefined ? { transcript: r.transcript as CaseResultDto["transcript"] } : {}),
    actual_response: r.actualResponse,
    response_truncated: r.responseTruncated,
    check_results: r.checkResults as CaseResultDto["check_results"],
    tool_call_results: r.toolCallResults as CaseResultDto["tool_call_results"],
    outcome_results: r.outcomeResults as CaseResultDto["outcome_results"],
    metric_results: metricResultsOf(r.metricResults) as CaseResultDto["metric_results"],
    prompt_tokens: r.promptTokens,
    completion_tokens: r.completionTokens,
    cost: costOf(r.costBreakdown),
    latency_ms: r.latencyMs,
    duration_ms: r.durationMs,
    /** Retries of the agent's calls only (the A/B engine). */
    retry_count: r.retryCount,
    /** The variables model's ResolvedTestVariables of this case: {values, sources} (null when the agent declares no variables). */
    resolved_variables: (r.resolvedVariables ?? null) as CaseResultDto["resolved_variables"],
    /** Retries of the judge, simulator, check and metric calls, apart from the agent's. */
    evaluator_retry_count: r.evaluatorRetryCount,
    turns: r.turns,
    ...metricCounts(r.metricResults),
    /** Errors only (agent, simulator, judge, …); never set on a passed or failed case. */
    error_message: r.errorMessage,
    error_type: r.errorType,
    errors,
    /** Why a failed case failed (empty otherwise). */
    failure_reasons: r.failureReasons,
    end_reason: r.endReason as EndReason | null,
    /** The workspace's safety cap (turns or tokens) ended the conversation, not the case's own max_turns. */
    stopped_by_safety_cap: r.endReason === "safety_cap" || r.endReason === "token_cap",
    ...humanVerdictFields(r),
    started_at: iso(r.startedAt),
    completed_at: iso(r.completedAt),
  };
}
export type CaseResultDto = z.output<typeof caseResultResource>;

/** One LLM call of a case result, as the case page and the API show it. */
export type LlmCallDto = z.output<typeof llmCallResource>;

/** A case result with its transcript and LLM calls (the case page and GET /case-results/{id}). */
export type CaseResultDetail = Omit<CaseResultDto, "transcript"> & { transcript: Prisma.JsonValue; llm_calls: LlmCallDto[] };

/** A case whose verdict changed since the suite's previous completed run. */
export type VerdictChange = z.output<typeof verdictChange>;
export type RunChanges = z.output<typeof runChanges>;
export type RunChangeDetails = z.output<typeof runChangesResource>;

/**
 * `Run.summary` as finalize computes it (the schema, with every field described, is
 * `runSummaryComputed` in ./openapi.ts). The counted fields and their rules are in
 * ./summary-counts.ts; summaries stored under older rules are recounted when read
 * (`currentSummary`), and the oldest lack the fields added after them.
 */
export type RunSummary = z.output<typeof runSummaryComputed>;

/** The run's suite for headers and links; a deleted suite still shows its name. */
export type RunSuiteInfo = { id: string; name: string; deleted: boolean; agentName: string | null };

/** The run page's case table location (from the URL): filters, search, order and page. */
export type CaseTableFilters = {
  status?: CaseResultStatus;
  tag?: string;
  q?: string;
  sort?: CaseSortKey;
  dir?: SortDir;
  page?: number;
};

/**
 * The slim case result the run page's table polls for: no transcript, snapshot or verdict
 * details (those are loaded per case), so a live table stays cheap to refresh every second. A
 * failed or errored row carries its one-line `failure_reason` (./failure-reason.ts).
 */
export type CaseResultRow = z.output<typeof caseTableRowResource>;

/** One test case of a run with its trials' figures (GET /api/v1/runs/{id}/cases). */
export type RunCaseDto = z.output<typeof runCaseResource>;
export type RunCasesPage = { data: RunCaseDto[]; next_cursor: string | null };
export type RunCasesFilters = { stability?: NonNullable<RunCaseDto["stability"]> };
/** How many test cases one page of the run page's per-case table shows. */
export const RUN_CASES_PAGE_SIZE = 50;

/** Rows per page of the run page's case table. */
export const CASE_PAGE_SIZE = 50;

/** How many results of each status match a case table's search and tag (the filter chips). */
export type CaseStatusCounts = Record<CaseResultStatus, number>;

/** Where one case stands in its run's table (same filters and order): the case view's previous/next links. */
export type CaseNeighbours = {
  /** 1-based place of the case in the list; null when the list's filters leave it out. */
  index: number | null;
  total: number;
  /** Failed results in the list, and how many of them come before or at this case. */
  failures: number;
  failureIndex: number;
  /** The case's page in the run page's table (its "Back to run" link). */
  page: number;
  prevFailure: string | null;
  nextFailure: string | null;
  prevCase: string | null;
  nextCase: string | null;
};

/** One page of the run page's case table, with what its chips and "1–50 of 300" need. */
export type CaseResultPage = z.output<typeof caseTablePageResource>;

/** The columns the run page's case table shows, and nothing else: the live table reads these every second. */
export const caseResultRowSelect = {
  id: true,
  ...casePlaceSelect,
  promptTokens: true,
  completionTokens: true,
  latencyMs: true,
  durationMs: true,
  retryCount: true,
  turns: true,
  errorMessage: true,
  errorType: true,
  failureReasons: true,
  endReason: true,
  costUsd: true,
} as const satisfies Prisma.CaseResultSelect;

/** A slim row as the run page's statement reads it: the select's columns, the human verdict and the review item's state. */
export type CaseResultRowRecord = Prisma.CaseResultGetPayload<{ select: typeof caseResultRowSelect }> & {
  humanVerdict: "pass" | "fail" | null;
  reviewStatus: CaseResultRow["review_status"];
  /** A failed result's first failing check and outcome (details trimmed in SQL); null otherwise. */
  failedCheck: FailedCheckSummary | null;
  failedOutcome: FailedOutcomeSummary | null;
};

export function toCaseResultRow(r: CaseResultRowRecord): CaseResultRow {
  return {
    id: r.id,
    ...toCasePlace(r),
    prompt_tokens: r.promptTokens,
    completion_tokens: r.completionTokens,
    latency_ms: r.latencyMs,
    duration_ms: r.durationMs,
    retry_count: r.retryCount,
    turns: r.turns,
    error_message: r.errorMessage,
    error_type: r.errorType,
    failure_reasons: r.failureReasons,
    cost_usd: r.costUsd,
    failure_reason: failureReason({
      status: r.status,
      error_type: r.errorType,
      error_message: r.errorMessage,
      failure_reasons: r.failureReasons,
      failed_check: r.failedCheck,
      failed_outcome: r.failedOutcome,
    }),
    stopped_by_safety_cap: r.endReason === "safety_cap" || r.endReason === "token_cap",
    human_verdict: r.humanVerdict,
    review_status: r.reviewStatus,
  };
}

/* Suite analytics (the suite runs page and GET /api/w/…/suites/{id}/analytics). */

/** A run's case results as the suite pages count them: all, those that ended, and each verdict. */
export type RunCaseCounts = { total: number; done: number; passed: number; failed: number; errors: number; skipped: number };

export type TrendPoint = {
  run_id: string;
  /** The run's number within the suite (#42): the trend's x-axis. */
  number: number;
  created_at: string;
  /** What the run's caller said about it (commit, branch, build URL), shown in the tooltip. */
  metadata: Record<string, string>;
  status: RunStatus;
  /** Pass rate over executed (non-skipped) cases, 0–100; null when nothing was executed. */
  pass_rate: number | null;
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  total: number;
  duration_ms: number | null;
  /** Mean over cases of the case's pass rate (errors excluded), 0–100; null for runs finished before trials. */
  pass_at_1: number | null;
  /** The 95 % interval of `pass_at_1` as [low, high], 0–100; null when the run's summary has none. */
  pass_at_1_ci95: [number, number] | null;
};
export type MetricTrendPoint = { run_id: string; number: number; created_at: string; averages: Record<string, number> };
export type TagPassRate = { tag: string; passed: number; failed: number; errors: number; total: number; pass_rate: number | null };
export type LatestRun = RunCaseCounts & {
  id: string;
  number: number;
  status: RunStatus;
  created_at: string;
  pass_rate: number | null;
};
export type SuiteAnalytics = {
  trend: TrendPoint[];
  metric_trend: MetricTrendPoint[];
  /** Every metric name seen in `metric_trend`, sorted. */
  metric_names: string[];
  tag_pass_rates: TagPassRate[];
  /** How many completed runs `tag_pass_rates` aggregates (0 when the suite has none). */
  tag_runs: number;
  /** The suite's newest ordinary run (not an experiment) of any status. */
  latest: LatestRun | null;
  /** Runs of the suite that are pending or running, experiments included (the page polls while > 0). */
  active_runs: number;
};

export type RunHistoryRow = RunCaseCounts & {
  id: string;
  number: number;
  /** A comparison arm or matrix combination (listed under the Experiments filter only). */
  experiment: boolean;
  metadata: Record<string, string>;
  status: RunStatus;
  triggered_by: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  pass_rate: number | null;
  duration_ms: number | null;
  /** What the run cost in USD (set when it ends; null when unknown: no prices, or still running). */
  cost_usd: number | null;
  /** The comparison this run is an arm of (and which arm), when it is one. */
  comparison_id?: string | null;
  arm_index?: number | null;
  matrix_id?: string | null;
  combination_index?: number | null;
};
