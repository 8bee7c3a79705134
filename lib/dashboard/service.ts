/**
 * The workspace's home dashboard: what a QA lead looks at first in the morning. Each panel is one
 * bounded SQL read (a LIMIT on every list, walking the existing indexes), so the page costs the
 * same in a workspace with ten runs as in one with a hundred thousand:
 * - suites with their last pass rate and trend (ordinary runs only, as every history figure),
 * - runs in progress, open alerts, the newest failed or errored case results,
 * - how many review items wait for the member (the Review link's count).
 */
import "server-only";
import { db } from "@/lib/db";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { ordinaryRunSql } from "@/lib/runs/history";
import { countOpenAlerts } from "@/lib/alerts/service";
import { countMyOpenItems } from "@/lib/review/service";
import type { RunStatus } from "@/lib/runs/schemas";

/** How many of each panel's items the dashboard shows (the panels link to their full lists). */
export const DASHBOARD_LIMITS = { suites: 12, trend: 10, active: 10, alerts: 5, failures: 10, failureRuns: 10 } as const;

export type DashboardSuite = {
  id: string;
  name: string;
  /** Pass rates (percent) of its last completed ordinary runs, oldest first: the sparkline. */
  rates: number[];
  last_run: { id: string; number: number; pass_rate: number | null; created_at: string } | null;
};
export type DashboardActiveRun = {
  id: string;
  number: number;
  status: RunStatus;
  suite_id: string;
  suite_name: string;
  done: number;
  total: number;
  created_at: string;
};
export type DashboardAlert = {
  id: string;
  suite_id: string;
  suite_name: string;
  run_id: string;
  run_number: number;
  pass_rate: number;
  previous_rate: number;
  created_at: string;
};
export type DashboardFailure = {
  id: string;
  name: string;
  status: "failed" | "error";
  /** The first failure reason, or the error message. */
  reason: string | null;
  run_id: string;
  run_number: number;
  suite_name: string;
  created_at: string;
};
export type Dashboard = {
  suites: DashboardSuite[];
  suite_count: number;
  active_runs: DashboardActiveRun[];
  open_alerts: DashboardAlert[];
  open_alert_count: number;
  failures: DashboardFailure[];
  review_waiting: number;
};

const passRate = (passed: number, failed: number, errors: number) => {
  const executed = passed + failed + errors;
  return executed > 0 ? Math.round((passed / executed) * 1000) / 10 : null;
};

type SuiteRow = {
  id: string;
  name: string;
  runs: { id: string; number: number; passed: number; failed: number; errors: number; created_at: string }[] | null;
  suite_count: number;
};

/**
 * The suites with a completed run most recently first (then the others by name), each with its
 * last completed ordinary runs: the lateral read walks the partial index over completed ordinary
 * runs (Run_suite_completed_idx) and stops after the trend's window.
 */
async function dashboardSuites(workspaceId: string): Promise<{ suites: DashboardSuite[]; count: number }> {
  const rows = await db.$queryRaw<SuiteRow[]>`
    SELECT s."id", s."name", t.runs, count(*) OVER ()::int AS suite_count
    FROM "Suite" s
    LEFT JOIN LATERAL (
      SELECT json_agg(json_build_object('id', x."id", 'number', x."number", 'passed', x."passedCases", 'failed', x."failedCases",
                                        'errors', x."errorCases", 'created_at', x."createdAt") ORDER BY x."createdAt") AS runs,
             max(x."createdAt") AS last_at
      FROM (
        SELECT r."id", r."number", r."passedCases", r."failedCases", r."errorCases", r."createdAt"
        FROM "Run" r
        WHERE r."suiteId" = s."id" AND r."status" = 'completed' AND ${ordinaryRunSql("r")}
        ORDER BY r."createdAt" DESC, r."id" DESC
        LIMIT ${DASHBOARD_LIMITS.trend}
      ) x
    ) t ON true
    WHERE s."workspaceId" = ${workspaceId}::uuid AND s."deletedAt" IS NULL
    ORDER BY t.last_at DESC NULLS LAST, s."name", s."id"
    LIMIT ${DASHBOARD_LIMITS.suites}`;
  const suites = rows.map((s) => {
    const runs = (s.runs ?? []).map((r) => ({ ...r, pass_rate: passRate(r.passed, r.failed, r.errors) }));
    const last = runs.at(-1);
    return {
      id: s.id,
      name: s.name,
      rates: runs.flatMap((r) => (r.pass_rate === null ? [] : [r.pass_rate])),
      last_run: last
        ? { id: last.id, number: last.number, pass_rate: last.pass_rate, created_at: new Date(last.created_at).toISOString() }
        : null,
    };
  });
  return { suites, count: rows[0]?.suite_count ?? 0 };
}

type ActiveRow = Omit<DashboardActiveRun, "created_at"> & { created_at: Date };

/** Pending and running runs, experiments included (they use the executor too), newest first. */
async function activeRuns(workspaceId: string): Promise<DashboardActiveRun[]> {
  const rows = await db.$queryRaw<ActiveRow[]>`
    SELECT r."id", r."number", r."status"::text AS status, r."suiteId" AS suite_id, s."name" AS suite_name,
           (r."passedCases" + r."failedCases" + r."errorCases" + r."skippedCases")::int AS done, r."totalCases" AS total,
           r."createdAt" AS created_at
    FROM "Run" r JOIN "Suite" s ON s."id" = r."suiteId"
    WHERE r."workspaceId" = ${workspaceId}::uuid AND r."status" IN ('pending', 'running')
    ORDER BY r."createdAt" DESC, r."id" DESC
    LIMIT ${DASHBOARD_LIMITS.active}`;
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
}

type AlertRow = Omit<DashboardAlert, "created_at"> & { created_at: Date };

/** The newest alerts nobody acknowledged yet. */
async function openAlerts(workspaceId: string): Promise<DashboardAlert[]> {
  const rows = await db.$queryRaw<AlertRow[]>`
    SELECT a."id", a."suiteId" AS suite_id, s."name" AS suite_name, a."runId" AS run_id, r."number" AS run_number,
           a."passRate" AS pass_rate, a."previousRate" AS previous_rate, a."createdAt" AS created_at
    FROM "RegressionAlert" a
    JOIN "Suite" s ON s."id" = a."suiteId"
    JOIN "Run" r ON r."id" = a."runId"
    WHERE a."workspaceId" = ${workspaceId}::uuid AND a."acknowledgedAt" IS NULL
    ORDER BY a."createdAt" DESC, a."id" DESC
    LIMIT ${DASHBOARD_LIMITS.alerts}`;
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
}

type FailureRow = Omit<DashboardFailure, "created_at" | "reason"> & {
  created_at: Date;
  failure_reasons: string[];
  error_message: string | null;
};

/**
 * The newest failed or errored case results of ordinary runs. Case results have no workspace-wide
 * time index, so the read starts from the newest runs that had a failure (the workspace's run
 * index) and takes each one's failures through (runId, status).
 */
async function recentFailures(workspaceId: string): Promise<DashboardFailure[]> {
  const rows = await db.$queryRaw<FailureRow[]>`
    SELECT c."id", c."name", c."status"::text AS status, c."failureReasons" AS failure_reasons, c."errorMessage" AS error_message,
           r."id" AS run_id, r."number" AS run_number, s."name" AS suite_name, c."createdAt" AS created_at
    FROM (
      SELECT r."id", r."number", r."suiteId", r."createdAt"
      FROM "Run" r
      WHERE r."workspaceId" = ${workspaceId}::uuid AND ${ordinaryRunSql("r")} AND r."failedCases" + r."errorCases" > 0
      ORDER BY r."createdAt" DESC, r."id" DESC
      LIMIT ${DASHBOARD_LIMITS.failureRuns}
    ) r
    JOIN "Suite" s ON s."id" = r."suiteId"
    JOIN LATERAL (
      SELECT c."id", c."name", c."status", c."failureReasons", c."errorMessage", c."createdAt"
      FROM "CaseResult" c
      WHERE c."runId" = r."id" AND c."status" IN ('failed', 'error')
      ORDER BY c."createdAt" DESC, c."id" DESC
      LIMIT ${DASHBOARD_LIMITS.failures}
    ) c ON true
    ORDER BY r."createdAt" DESC, r."id" DESC, c."createdAt" DESC, c."id" DESC
    LIMIT ${DASHBOARD_LIMITS.failures}`;
  return rows.map(({ failure_reasons, error_message, ...r }) => ({
    ...r,
    reason: (r.status === "error" ? error_message : failure_reasons[0]) ?? error_message ?? null,
    created_at: r.created_at.toISOString(),
  }));
}

export async function getDashboard(ctx: WorkspaceContext): Promise<Dashboard> {
  requireRole(ctx, "viewer");
  const ws = ctx.workspaceId;
  const [suites, active_runs, open_alerts, open_alert_count, failures, review_waiting] = await Promise.all([
    dashboardSuites(ws),
    activeRuns(ws),
    openAlerts(ws),
    countOpenAlerts(ctx),
    recentFailures(ws),
    countMyOpenItems(ctx),
  ]);
  return { suites: suites.suites, suite_count: suites.count, active_runs, open_alerts, open_alert_count, failures, review_waiting };
}
