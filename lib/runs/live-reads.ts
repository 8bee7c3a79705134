/**
 * The live run page's reads, shared between its viewers (./live-answers.ts): the run, a page of
 * its case table, a page of its per-case trials table, its changes card and one case. The session routes under /api/w and the run and
 * case page loaders read through these; the REST API reads afresh.
 */
import "server-only";
import type { WorkspaceContext } from "@/lib/auth/roles";
import type { CaseTableQuery, RunCasesQuery } from "./schemas";
import type { CaseResultDetail } from "./dto";
import { sharedAnswer } from "./live-answers";
import { caseResultDetailOn, scopedPoolRead } from "./case-results";
import { caseTableAndRunStatusOn } from "./case-table";
import { changesAndRunStatusOn, getRun } from "./service";
import { listRunCases } from "./trial-reads";

export const isLiveRunStatus = (status: string) => status === "pending" || status === "running";
const isOpenCase = (detail: CaseResultDetail) => detail.status === "pending" || detail.status === "running";

/** The run (getRun). */
export function liveRun(ctx: WorkspaceContext, runId: string, maxAgeMs: number) {
  return sharedAnswer(`${ctx.workspaceId}:run:${runId}`, { runId, maxAgeMs, live: (run) => isLiveRunStatus(run.status) }, () =>
    getRun(ctx, runId),
  );
}

/** The shared-answer key of a case table page: every parameter of its query. */
export function caseTableKey(q: CaseTableQuery): string {
  return JSON.stringify([q.status ?? null, q.variant ?? null, q.tag ?? null, q.trial ?? null, q.q ?? null, q.sort, q.dir, q.page, q.limit]);
}

/** One page of the case table (./case-table.ts); the key is every parameter of the query. */
export function liveCaseRows(ctx: WorkspaceContext, runId: string, q: CaseTableQuery, maxAgeMs: number) {
  const key = `${ctx.workspaceId}:rows:${runId}:${caseTableKey(q)}`;
  return sharedAnswer(key, { runId, maxAgeMs, live: (v) => isLiveRunStatus(v.runStatus), body: (v) => v.page }, () =>
    scopedPoolRead(ctx.workspaceId, (client) => caseTableAndRunStatusOn(client, ctx, runId, q)),
  );
}

/**
 * One page of the per-case trials table (listRunCases). The run's status is read first: a page
 * read after the run was seen finished is final, so it is never kept past the run's end.
 */
export function liveRunCases(ctx: WorkspaceContext, runId: string, q: RunCasesQuery, maxAgeMs: number) {
  const key = `${ctx.workspaceId}:cases:${runId}:${JSON.stringify([q.stability ?? null, q.tag ?? null, q.cursor ?? null, q.limit])}`;
  return sharedAnswer(key, { runId, maxAgeMs, live: (v) => isLiveRunStatus(v.runStatus), body: (v) => v.page }, async () => {
    const run = await getRun(ctx, runId);
    return { runStatus: run.status as string, page: await listRunCases(ctx, runId, q) };
  });
}

/** The changes card (changesSincePreviousRun). */
export function liveChanges(ctx: WorkspaceContext, runId: string, maxAgeMs: number) {
  return sharedAnswer(
    `${ctx.workspaceId}:changes:${runId}`,
    { runId, maxAgeMs, live: (v) => isLiveRunStatus(v.runStatus), body: (v) => v.changes },
    () => scopedPoolRead(ctx.workspaceId, (client) => changesAndRunStatusOn(client, ctx, runId)),
  );
}

/** One case with its transcript and calls (getCaseResult); kept only while the case is open (a finished case says nothing about its run). */
export function liveCaseResult(ctx: WorkspaceContext, id: string, maxAgeMs: number) {
  return sharedAnswer(
    `${ctx.workspaceId}:case:${id}`,
    { runId: (detail) => detail.run_id, maxAgeMs, live: isOpenCase, runFinished: () => false },
    () => scopedPoolRead(ctx.workspaceId, (client) => caseResultDetailOn(client, ctx, id)),
  );
}
