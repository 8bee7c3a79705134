/**
 * Regression alerts, from the reader's side: list (API, alerts page), the bell's count, the
 * suite page's open alert, acknowledge (any member: who and when are recorded), and pinning a
 * run as its suite's baseline. Raising alerts is lib/runs/alerts.ts (after a run completes).
 * Every query is scoped by `workspaceId`.
 */
import "server-only";
import { db } from "@/lib/db";
import { actorNames } from "@/lib/workspaces/members";
import { scopedPoolRead } from "@/lib/runs/case-results";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { pageNewestFirst } from "@/lib/serialize";
import { suiteFilterOptions } from "@/lib/suites/service";
import { alertSelect, toAlertDto, type AlertDto, type AlertRow } from "./dto";
import type { AlertListQuery } from "./schemas";

/** Display names of the members and keys that acknowledged these alerts. */
function acknowledgers(workspaceId: string, rows: AlertRow[]) {
  return actorNames(workspaceId, {
    userIds: rows.flatMap((r) => (r.acknowledgedByUserId ? [r.acknowledgedByUserId] : [])),
    keyIds: rows.flatMap((r) => (r.acknowledgedByKeyId ? [r.acknowledgedByKeyId] : [])),
  });
}

/** GET /api/v1/alerts and the alerts page: newest first, filtered by suite and acknowledged state. */
export async function listAlerts(ctx: WorkspaceContext, q: AlertListQuery): Promise<{ data: AlertDto[]; next_cursor: string | null }> {
  requireRole(ctx, "viewer");
  const { page, next_cursor } = await pageNewestFirst(q, (query) =>
    db.regressionAlert.findMany({
      ...query,
      where: {
        workspaceId: ctx.workspaceId,
        ...(q.suite_id ? { suiteId: q.suite_id } : {}),
        ...(q.acknowledged === "true" ? { acknowledgedAt: { not: null } } : q.acknowledged === "false" ? { acknowledgedAt: null } : {}),
        ...query.where,
      },
      select: alertSelect,
    }),
  );
  const names = await acknowledgers(ctx.workspaceId, page);
  return { data: page.map((r) => toAlertDto(r, names)), next_cursor };
}

/** The bell: unacknowledged alerts of the workspace (index on workspaceId, acknowledgedAt). */
export async function countOpenAlerts(ctx: WorkspaceContext): Promise<number> {
  requireRole(ctx, "viewer");
  // The shell's bell asks on every page view: one statement on the raw pg pool, scoped like `db`.
  const [row] = await scopedPoolRead(
    ctx.workspaceId,
    async (client) =>
      (
        await client.query<{ open: number }>({
          name: "assay_count_open_alerts",
          text: `SELECT count(*)::int AS open FROM "RegressionAlert" WHERE "workspaceId" = $1::uuid AND "acknowledgedAt" IS NULL`,
          values: [ctx.workspaceId],
        })
      ).rows,
  );
  return row?.open ?? 0;
}

/** The suite page's banner: the newest unacknowledged alert of the suite and how many are open. */
export async function openSuiteAlert(ctx: WorkspaceContext, suiteId: string): Promise<{ alert: AlertDto; open: number } | null> {
  requireRole(ctx, "viewer");
  if (!isUuid(suiteId)) return null;
  const where = { workspaceId: ctx.workspaceId, suiteId, acknowledgedAt: null };
  const [row, open] = await Promise.all([
    db.regressionAlert.findFirst({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: alertSelect }),
    db.regressionAlert.count({ where }),
  ]);
  return row ? { alert: toAlertDto(row), open } : null;
}

/**
 * Acknowledges an alert for the member (or API key) acting: records who and when. Any member
 * may acknowledge (viewers included: it says "I have seen it", it changes no data). Acknowledging
 * twice keeps the first acknowledgement.
 */
export async function acknowledgeAlert(ctx: WorkspaceContext, id: string): Promise<AlertDto> {
  requireRole(ctx, "viewer");
  if (!isUuid(id)) throw new NotFoundError("Alert");
  await db.regressionAlert.updateMany({
    where: { id, workspaceId: ctx.workspaceId, acknowledgedAt: null },
    data: { acknowledgedAt: new Date(), acknowledgedByUserId: ctx.userId, acknowledgedByKeyId: ctx.userId ? null : ctx.apiKeyId },
  });
  const row = await db.regressionAlert.findFirst({ where: { id, workspaceId: ctx.workspaceId }, select: alertSelect });
  if (!row) throw new NotFoundError("Alert");
  return toAlertDto(row, await acknowledgers(ctx.workspaceId, [row]));
}

export type BaselinePin = { suite_id: string; baseline_run_id: string | null };

async function pinnableRun(ctx: WorkspaceContext, runId: string) {
  if (!isUuid(runId)) throw new NotFoundError("Run");
  const run = await db.run.findFirst({
    where: { id: runId, workspaceId: ctx.workspaceId },
    select: {
      id: true,
      status: true,
      comparisonId: true,
      matrixId: true,
      suiteId: true,
      suite: { select: { deletedAt: true, baselineRunId: true } },
    },
  });
  if (!run) throw new NotFoundError("Run");
  return run;
}

/**
 * Pins a completed run as its suite's regression baseline: later runs over the same case
 * selection compare with it instead of with their previous run. A comparison arm run cannot be
 * a baseline (it is an experiment, not the suite's history).
 */
export async function pinBaseline(ctx: WorkspaceContext, runId: string): Promise<BaselinePin> {
  requireRole(ctx, "editor");
  const run = await pinnableRun(ctx, runId);
  if (run.comparisonId) throw new ConflictError("A comparison's run cannot be the suite's baseline");
  if (run.matrixId) throw new ConflictError("A matrix's run cannot be the suite's baseline");
  if (run.status !== "completed") throw new ConflictError("Only a completed run can be pinned as the baseline");
  if (run.suite.deletedAt) throw new ConflictError("The suite is in the trash");
  await db.suite.updateMany({ where: { id: run.suiteId, workspaceId: ctx.workspaceId }, data: { baselineRunId: run.id } });
  return { suite_id: run.suiteId, baseline_run_id: run.id };
}

/** Unpins the run when it is its suite's baseline (a no-op otherwise): the previous run with the same selection applies again. */
export async function unpinBaseline(ctx: WorkspaceContext, runId: string): Promise<BaselinePin> {
  requireRole(ctx, "editor");
  const run = await pinnableRun(ctx, runId);
  await db.suite.updateMany({
    where: { id: run.suiteId, workspaceId: ctx.workspaceId, baselineRunId: run.id },
    data: { baselineRunId: null },
  });
  const suite = await db.suite.findFirst({ where: { id: run.suiteId, workspaceId: ctx.workspaceId }, select: { baselineRunId: true } });
  return { suite_id: run.suiteId, baseline_run_id: suite?.baselineRunId ?? null };
}

/** The alerts page's suite filter: suites of the workspace that have alerts. */
export async function suitesWithAlerts(ctx: WorkspaceContext): Promise<{ id: string; name: string }[]> {
  return suiteFilterOptions(ctx, { alerts: { some: {} } });
}
