import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/workspaces/service";
import { listRuns } from "@/lib/runs/service";
import { RUN_STATUSES, type RunStatus } from "@/lib/runs/schemas";
import type { MetricTrendPoint, RunHistoryRow, SuiteAnalytics } from "@/lib/runs/dto";

/**
 * Suite analytics for the run history page: pass-rate trend, per-metric averages over time and
 * pass rate by tag. Everything is aggregated in PostgreSQL from Run columns, `Run.summary`
 * (jsonb, written at completion) and — for tags only — the case results of a few runs.
 */

export const DEFAULT_TREND_RUNS = 50;
export const MAX_TREND_RUNS = 500;
export const MAX_TAG_RUNS = 50;
/** Runs that ended: their totals are final. */
export const FINISHED_RUN_STATUSES = ["completed", "failed", "cancelled"] as const satisfies readonly RunStatus[];

export const suiteAnalyticsQuery = z.object({
  runs: z.coerce.number().int().min(1).max(MAX_TREND_RUNS).default(DEFAULT_TREND_RUNS),
  tag_runs: z.coerce.number().int().min(1).max(MAX_TAG_RUNS).default(1),
});
export type SuiteAnalyticsOptions = { runs?: number; tagRuns?: number };

export const suiteRunsQuery = z.object({
  status: z.enum(RUN_STATUSES).optional(),
  cursor: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** Pass rate over executed cases, one decimal; null when no case was executed. */
function rate(passed: number, executed: number): number | null {
  return executed > 0 ? Math.round((passed / executed) * 1000) / 10 : null;
}

const clamp = (v: number | undefined, fallback: number, max: number) => (Number.isInteger(v) && v! >= 1 ? Math.min(v!, max) : fallback);

async function requireSuite(ctx: WorkspaceContext, suiteId: string) {
  if (!isUuid(suiteId)) throw new NotFoundError("Suite");
  const suite = await db.suite.findFirst({ where: { id: suiteId, workspaceId: ctx.workspaceId }, select: { id: true } });
  if (!suite) throw new NotFoundError("Suite");
}

type TrendRow = {
  run_id: string;
  created_at: Date;
  status: RunStatus;
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  total: number;
  duration_ms: number | null;
  averages: unknown;
};

/** The last `limit` finished runs, oldest → newest, from Run columns and `summary->'average_scores'`. */
async function trendRows(ctx: WorkspaceContext, suiteId: string, limit: number) {
  return db.$queryRaw<TrendRow[]>`
    SELECT * FROM (
      SELECT r."id" AS run_id, r."createdAt" AS created_at, r."status"::text AS status,
             r."passedCases" AS passed, r."failedCases" AS failed, r."errorCases" AS errors,
             r."skippedCases" AS skipped, r."totalCases" AS total,
             (extract(epoch FROM (r."completedAt" - coalesce(r."startedAt", r."createdAt"))) * 1000)::int AS duration_ms,
             CASE WHEN jsonb_typeof(r."summary" -> 'average_scores') = 'object' THEN r."summary" -> 'average_scores' END AS averages
      FROM "Run" r
      WHERE r."workspaceId" = ${ctx.workspaceId}::uuid AND r."suiteId" = ${suiteId}::uuid
        AND r."status" IN ('completed', 'failed', 'cancelled')
      ORDER BY r."createdAt" DESC, r."id" DESC
      LIMIT ${limit}
    ) last_runs
    ORDER BY created_at ASC, run_id ASC`;
}

type TagRow = { tag: string; passed: number; failed: number; errors: number; runs: number };

/** Pass rate per tag over the case results of the latest `runs` completed runs (unnest + GROUP BY). */
async function tagRows(ctx: WorkspaceContext, suiteId: string, runs: number) {
  return db.$queryRaw<TagRow[]>`
    WITH recent AS (
      SELECT r."id" FROM "Run" r
      WHERE r."workspaceId" = ${ctx.workspaceId}::uuid AND r."suiteId" = ${suiteId}::uuid AND r."status" = 'completed'
      ORDER BY r."createdAt" DESC
      LIMIT ${runs}
    )
    SELECT t.tag,
           count(*) FILTER (WHERE c."status" = 'passed')::int AS passed,
           count(*) FILTER (WHERE c."status" = 'failed')::int AS failed,
           count(*) FILTER (WHERE c."status" = 'error')::int AS errors,
           (SELECT count(*) FROM recent)::int AS runs
    FROM recent
    JOIN "CaseResult" c ON c."runId" = recent."id" AND c."workspaceId" = ${ctx.workspaceId}::uuid
    CROSS JOIN LATERAL unnest(c."tags") AS t(tag)
    GROUP BY t.tag
    ORDER BY t.tag`;
}

type LatestRow = {
  id: string;
  status: RunStatus;
  created_at: Date;
  total: number;
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  active: number;
  completed_runs: number;
};

/** The newest run of any status, the number of active runs and the number of completed runs. */
async function latestRow(ctx: WorkspaceContext, suiteId: string, tagRuns: number) {
  const [row] = await db.$queryRaw<LatestRow[]>`
    SELECT l."id", l."status"::text AS status, l."createdAt" AS created_at, l."totalCases" AS total,
           l."passedCases" AS passed, l."failedCases" AS failed, l."errorCases" AS errors, l."skippedCases" AS skipped,
           (SELECT count(*) FROM "Run" a
             WHERE a."workspaceId" = ${ctx.workspaceId}::uuid AND a."suiteId" = ${suiteId}::uuid
               AND a."status" IN ('pending', 'running'))::int AS active,
           (SELECT count(*) FROM (
              SELECT 1 FROM "Run" c
              WHERE c."workspaceId" = ${ctx.workspaceId}::uuid AND c."suiteId" = ${suiteId}::uuid AND c."status" = 'completed'
              ORDER BY c."createdAt" DESC
              LIMIT ${tagRuns}) k)::int AS completed_runs
    FROM (SELECT NULL) AS one
    LEFT JOIN LATERAL (
      SELECT * FROM "Run" r
      WHERE r."workspaceId" = ${ctx.workspaceId}::uuid AND r."suiteId" = ${suiteId}::uuid
      ORDER BY r."createdAt" DESC, r."id" DESC
      LIMIT 1
    ) l ON true`;
  return row;
}

function numericAverages(value: unknown): Record<string, number> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const out: Record<string, number> = {};
  for (const [name, score] of Object.entries(value)) {
    if (typeof score === "number" && Number.isFinite(score)) out[name] = score;
  }
  return out;
}

/**
 * Trend, metric averages and tag pass rates of a suite's runs. Four small indexed queries;
 * nothing is aggregated in JavaScript beyond shaping at most `runs` rows.
 */
export async function getSuiteAnalytics(ctx: WorkspaceContext, suiteId: string, opts: SuiteAnalyticsOptions = {}): Promise<SuiteAnalytics> {
  await requireSuite(ctx, suiteId);
  const runs = clamp(opts.runs, DEFAULT_TREND_RUNS, MAX_TREND_RUNS);
  const tagRuns = clamp(opts.tagRuns, 1, MAX_TAG_RUNS);
  const [trend, tags, latest] = await Promise.all([
    trendRows(ctx, suiteId, runs),
    tagRows(ctx, suiteId, tagRuns),
    latestRow(ctx, suiteId, tagRuns),
  ]);

  const metricNames = new Set<string>();
  const metricTrend: MetricTrendPoint[] = [];
  for (const r of trend) {
    const averages = numericAverages(r.averages);
    const names = Object.keys(averages);
    if (names.length === 0) continue;
    names.forEach((n) => metricNames.add(n));
    metricTrend.push({ run_id: r.run_id, created_at: r.created_at.toISOString(), averages });
  }

  return {
    trend: trend.map((r) => ({
      run_id: r.run_id,
      created_at: r.created_at.toISOString(),
      status: r.status,
      pass_rate: rate(r.passed, r.passed + r.failed + r.errors),
      passed: r.passed,
      failed: r.failed,
      errors: r.errors,
      skipped: r.skipped,
      total: r.total,
      duration_ms: r.duration_ms,
    })),
    metric_trend: metricTrend,
    metric_names: [...metricNames].sort(),
    tag_pass_rates: tags.map((t) => {
      const total = t.passed + t.failed + t.errors;
      return { tag: t.tag, passed: t.passed, failed: t.failed, errors: t.errors, total, pass_rate: rate(t.passed, total) };
    }),
    tag_runs: latest?.completed_runs ?? 0,
    latest:
      latest && latest.id
        ? {
            id: latest.id,
            status: latest.status,
            created_at: latest.created_at.toISOString(),
            total: latest.total,
            done: latest.passed + latest.failed + latest.errors + latest.skipped,
            passed: latest.passed,
            failed: latest.failed,
            errors: latest.errors,
            skipped: latest.skipped,
            pass_rate: rate(latest.passed, latest.passed + latest.failed + latest.errors),
          }
        : null,
    active_runs: latest?.active ?? 0,
  };
}

/** One page of the suite's run history (newest first) as slim table rows; reuses `listRuns`. */
export async function listSuiteRunsPage(
  ctx: WorkspaceContext,
  suiteId: string,
  q: { cursor?: string; limit?: number; status?: RunStatus } = {},
): Promise<{ data: RunHistoryRow[]; next_cursor: string | null }> {
  const page = await listRuns(ctx, suiteId, { cursor: q.cursor, status: q.status, limit: clamp(q.limit, 20, 100) });
  return {
    next_cursor: page.next_cursor,
    data: page.data.map((r) => {
      const started = r.started_at ? Date.parse(r.started_at) : null;
      const completed = r.completed_at ? Date.parse(r.completed_at) : null;
      return {
        id: r.id,
        status: r.status,
        triggered_by: r.triggered_by,
        created_at: r.created_at!,
        started_at: r.started_at,
        completed_at: r.completed_at,
        total: r.total_cases,
        done: r.done_cases,
        passed: r.passed_cases,
        failed: r.failed_cases,
        errors: r.error_cases,
        skipped: r.skipped_cases,
        pass_rate: rate(r.passed_cases, r.passed_cases + r.failed_cases + r.error_cases),
        duration_ms: started !== null && completed !== null ? completed - started : null,
        comparison_id: r.comparison_id,
        arm_index: r.arm_index,
        matrix_id: r.matrix_id,
        combination_index: r.combination_index,
      };
    }),
  };
}
