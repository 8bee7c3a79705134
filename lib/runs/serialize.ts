import { iso } from "@/lib/serialize";
import type { Prisma } from "@/lib/generated/prisma/client";

export const runSelect = {
  id: true,
  suiteId: true,
  status: true,
  triggeredBy: true,
  triggeredByUserId: true,
  options: true,
  concurrency: true,
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
  summary: true,
  errorMessage: true,
  cancelRequestedAt: true,
  startedAt: true,
  completedAt: true,
  createdAt: true,
} as const satisfies Prisma.RunSelect;

export type RunRow = Prisma.RunGetPayload<{ select: typeof runSelect }>;

/** Pass rate over executed (non-skipped) cases, 0–100, one decimal. */
export function passRate(passed: number, total: number, skipped: number): number {
  const executed = total - skipped;
  return executed > 0 ? Math.round((passed / executed) * 1000) / 10 : 0;
}

export function toRunDto(r: RunRow) {
  const done = r.passedCases + r.failedCases + r.skippedCases + r.errorCases;
  return {
    id: r.id,
    suite_id: r.suiteId,
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
    concurrency: r.concurrency,
    options: r.options,
    resolved_variables: r.resolvedVariables,
    agent_snapshot: r.agentSnapshot,
    variant_snapshot: r.variantSnapshot,
    summary: r.summary,
    error_message: r.errorMessage,
    cancel_requested_at: iso(r.cancelRequestedAt),
    started_at: iso(r.startedAt),
    completed_at: iso(r.completedAt),
    created_at: iso(r.createdAt),
  };
}
export type RunDto = ReturnType<typeof toRunDto>;

export const caseResultSelect = {
  id: true,
  runId: true,
  testCaseId: true,
  variant: true,
  position: true,
  status: true,
  name: true,
  tags: true,
  caseSnapshot: true,
  transcript: true,
  actualResponse: true,
  responseTruncated: true,
  checkResults: true,
  toolCallResults: true,
  outcomeResults: true,
  metricResults: true,
  promptTokens: true,
  completionTokens: true,
  latencyMs: true,
  durationMs: true,
  retryCount: true,
  turns: true,
  errorMessage: true,
  errorType: true,
  startedAt: true,
  completedAt: true,
  createdAt: true,
} as const satisfies Prisma.CaseResultSelect;

export type CaseResultRow = Prisma.CaseResultGetPayload<{ select: typeof caseResultSelect }>;

export function toCaseResultDto(r: CaseResultRow) {
  return {
    id: r.id,
    run_id: r.runId,
    test_case_id: r.testCaseId,
    variant: r.variant,
    position: r.position,
    status: r.status,
    name: r.name,
    tags: r.tags,
    test_case: r.caseSnapshot,
    transcript: r.transcript,
    actual_response: r.actualResponse,
    response_truncated: r.responseTruncated,
    check_results: r.checkResults,
    tool_call_results: r.toolCallResults,
    outcome_results: r.outcomeResults,
    metric_results: r.metricResults,
    prompt_tokens: r.promptTokens,
    completion_tokens: r.completionTokens,
    latency_ms: r.latencyMs,
    duration_ms: r.durationMs,
    retry_count: r.retryCount,
    turns: r.turns,
    error_message: r.errorMessage,
    error_type: r.errorType,
    started_at: iso(r.startedAt),
    completed_at: iso(r.completedAt),
  };
}
export type CaseResultDto = ReturnType<typeof toCaseResultDto>;
