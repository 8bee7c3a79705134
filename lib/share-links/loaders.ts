/**
 * Loaders of the public share pages (/share/<token>): the token is resolved first (./service.ts),
 * then every read runs in the link's workspace scope with a viewer's context that has no user and
 * no key. What they return is an allowlist built here, field by field: the shared page gets the
 * report's figures, verdicts and reasons, and never the agent's configuration (its system prompt,
 * headers, model base URLs), model configurations, member emails or the LLM calls' raw requests.
 */
import "server-only";
import { db } from "@/lib/db";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { NotFoundError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { withWorkspaceScope } from "@/lib/tenant-scope";
import { getRun } from "@/lib/runs/service";
import { getCaseResult } from "@/lib/runs/case-results";
import { getSuiteInfo } from "@/lib/suites/service";
import { getComparison, listPairs } from "@/lib/comparisons/service";
import { pairListQuery } from "@/lib/comparisons/schemas";
import type { CaseResultStatus } from "@/lib/runs/schemas";
import { resolveShareToken, type ResolvedShare } from "./service";

/** At most this many case rows (or pairs) on one shared page: a report, not an export. */
export const SHARED_ROWS_LIMIT = 1000;

function shareContext(share: ResolvedShare): WorkspaceContext {
  return { workspaceId: share.workspaceId, role: "viewer", userId: null, apiKeyId: null };
}

/** Failures first, then errors, passes and skipped cases: the order a reader triages in. */
const STATUS_ORDER: Record<CaseResultStatus, number> = { failed: 0, error: 1, passed: 2, skipped: 3, pending: 4, running: 4 };

async function sharedRunReport(ctx: WorkspaceContext, runId: string) {
  const run = await getRun(ctx, runId);
  const suite = await getSuiteInfo(ctx, run.suite_id);
  const rows = await db.caseResult.findMany({
    where: { runId, workspaceId: ctx.workspaceId },
    select: {
      id: true,
      name: true,
      status: true,
      repetition: true,
      position: true,
      tags: true,
      failureReasons: true,
      errorMessage: true,
      latencyMs: true,
      promptTokens: true,
      completionTokens: true,
    },
    orderBy: [{ position: "asc" }, { repetition: "asc" }],
    take: SHARED_ROWS_LIMIT,
  });
  const cases = rows
    .map((r) => ({
      id: r.id,
      name: r.name,
      status: r.status as CaseResultStatus,
      trial: r.repetition,
      tags: r.tags,
      reason: r.status === "failed" ? (r.failureReasons[0] ?? null) : r.status === "error" ? r.errorMessage : null,
      more_reasons: r.status === "failed" ? Math.max(0, r.failureReasons.length - 1) : 0,
      latency_ms: r.latencyMs,
      tokens: r.promptTokens + r.completionTokens,
    }))
    .sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);
  return {
    kind: "run" as const,
    run: {
      number: run.number,
      status: run.status,
      trials: run.trials,
      total_cases: run.total_cases,
      passed_cases: run.passed_cases,
      failed_cases: run.failed_cases,
      error_cases: run.error_cases,
      skipped_cases: run.skipped_cases,
      pass_rate: run.pass_rate,
      prompt_tokens: run.prompt_tokens,
      completion_tokens: run.completion_tokens,
      started_at: run.started_at,
      completed_at: run.completed_at,
      created_at: run.created_at,
    },
    suite: { name: suite.name, agentName: suite.agentName },
    cases,
    truncated: run.total_cases * Math.max(1, run.trials) > rows.length && rows.length === SHARED_ROWS_LIMIT,
  };
}

async function sharedComparisonReport(ctx: WorkspaceContext, comparisonId: string) {
  const comparison = await getComparison(ctx, comparisonId);
  const suite = await getSuiteInfo(ctx, comparison.suite_id);
  const pairs = await listPairs(ctx, comparison.id, pairListQuery.parse({ limit: 500 }));
  // Flipped pairs first: they are what a comparison is read for.
  const flipped = (change: string | null) => (change === "pass_to_fail" || change === "fail_to_pass" ? 0 : 1);
  return {
    kind: "comparison" as const,
    comparison: {
      name: comparison.name,
      status: comparison.status,
      total_pairs: comparison.total_pairs,
      completed_pairs: comparison.completed_pairs,
      completed_at: comparison.completed_at,
      summary: comparison.summary,
      arms: comparison.arms.map((a) => ({ role: a.role, label: a.label, run_number: a.run_number, model: a.resolved.model ?? null })),
    },
    suite: { name: suite.name, agentName: suite.agentName },
    pairs: pairs.data
      .map((p) => ({
        index: p.index,
        name: p.test_case_name,
        repetition: p.repetition,
        baseline: p.baseline?.status ?? null,
        variant: p.variant?.status ?? null,
        verdict_change: p.verdict_change,
        latency_diff_ms: p.latency_diff_ms,
        token_overhead: p.token_overhead,
      }))
      .sort((a, b) => flipped(a.verdict_change) - flipped(b.verdict_change)),
    more_pairs: pairs.next_cursor !== null,
  };
}

export type SharedRunReport = Awaited<ReturnType<typeof sharedRunReport>>;
export type SharedComparisonReport = Awaited<ReturnType<typeof sharedComparisonReport>>;
export type SharedReport = SharedRunReport | SharedComparisonReport;

/** The shared page of a token, or null (unknown, expired, revoked, sharing off, or what it shared is gone). */
export async function loadSharedReport(token: string): Promise<SharedReport | null> {
  const share = await resolveShareToken(token);
  if (!share) return null;
  const ctx = shareContext(share);
  return withWorkspaceScope(ctx.workspaceId, () =>
    share.target.kind === "run" ? sharedRunReport(ctx, share.target.id) : sharedComparisonReport(ctx, share.target.id),
  ).catch(nullWhenGone);
}

/** Transcript messages as shared: the system prompt is the agent's configuration, not the report. */
type Message = { role?: unknown };

/**
 * One case of a shared run (/share/<token>/cases/<id>): its verdict, reasons, checks, outcomes,
 * metrics, final response and transcript. Null unless the token shares the run the case is in.
 */
export async function loadSharedCase(token: string, caseResultId: string) {
  const share = await resolveShareToken(token);
  if (!share || share.target.kind !== "run" || !isUuid(caseResultId)) return null;
  const ctx = shareContext(share);
  const runId = share.target.id;
  return withWorkspaceScope(ctx.workspaceId, async () => {
    const r = await getCaseResult(ctx, caseResultId);
    if (r.run_id !== runId) return null;
    const run = await getRun(ctx, runId);
    const snapshot = (r.test_case ?? {}) as Record<string, unknown>;
    const transcript = (Array.isArray(r.transcript) ? (r.transcript as Message[]) : []).filter((m) => m?.role !== "system");
    return {
      runNumber: run.number,
      result: {
        id: r.id,
        name: r.name,
        status: r.status,
        trial: r.trial,
        failure_reasons: r.failure_reasons,
        error_message: r.error_message,
        actual_response: r.actual_response,
        response_truncated: r.response_truncated,
        check_results: r.check_results,
        tool_call_results: r.tool_call_results,
        outcome_results: r.outcome_results,
        metric_results: r.metric_results,
        prompt_tokens: r.prompt_tokens,
        completion_tokens: r.completion_tokens,
        latency_ms: r.latency_ms,
        turns: r.turns,
        transcript,
      },
      // Only what the verdict views and the transcript's labels read from the case.
      snapshot: {
        checks: Array.isArray(snapshot.checks) ? snapshot.checks : [],
        mode: typeof snapshot.mode === "string" ? snapshot.mode : null,
        persona: Boolean(snapshot.persona),
        initial_message: typeof snapshot.initial_message === "string" ? snapshot.initial_message : null,
      },
    };
  }).catch(nullWhenGone);
}

export type SharedCase = NonNullable<Awaited<ReturnType<typeof loadSharedCase>>>;

function nullWhenGone(err: unknown): null {
  if (err instanceof NotFoundError) return null;
  throw err;
}
