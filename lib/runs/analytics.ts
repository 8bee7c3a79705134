import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { cursorFields, decodeCursor, encodeCursor, iso } from "@/lib/serialize";
import { NotFoundError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { requireSuite } from "@/lib/test-cases/suite-guards";
import { RUN_KINDS, RUN_STATUSES, type RunKind, type RunStatus } from "@/lib/runs/schemas";
import { ordinaryRunSql, runKindSql } from "@/lib/runs/history";
import type { MetricTrendPoint, RunHistoryRow, SuiteAnalytics, TrendPoint } from "@/lib/runs/dto";

/**
 * Suite analytics for the run history page: pass-rate trend, per-metric averages over time and
 * pass rate by tag, and the run history table. Everything is aggregated in PostgreSQL from Run
 * columns, `Run.summary` (jsonb, written at completion) and — for tags only — the case results of
 * a few runs; every window is bounded (MAX_TREND_RUNS, MAX_TAG_RUNS, 100 rows a page).
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
  kind: z.enum(RUN_KINDS).default("ordinary"),
  cursor: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** Pass rate over executed cases, one decimal; null when no case was executed. */
function rate(passed: number, executed: number): number | null {
  return executed > 0 ? Math.round((passed / executed) * 1000) / 10 : null;
}

type CaseTally = { total: number; passed: number; failed: number; errors: number; skipped: number };

/** A run's cases as its history row and the latest-run card show them: settled so far (`done`) and the pass rate over executed ones. */
function caseCounts(r: CaseTally) {
  return {
    total: r.total,
    done: r.passed + r.failed + r.errors + r.skipped,
    passed: r.passed,
    failed: r.failed,
    errors: r.errors,
    skipped: r.skipped,
    pass_rate: rate(r.passed, r.passed + r.failed + r.errors),
  };
}

const clamp = (v: number | undefined, fallback: number, max: number) => (Number.isInteger(v) && v! >= 1 ? Math.min(v!, max) : fallback);

// The history queries are built as Prisma.Sql so that `npm run bench -- --explain` prints the
// plans of exactly the statements the pages send (scripts/bench/history-bench.ts). Each walks
// Run (suiteId, createdAt DESC, id DESC) — or its partial twin for completed runs — in order and
// stops after its window: the cost follows the window, not the length of the history (migration
// history_indexes). Runs are scoped through their suite's workspace (`suiteRuns`) rather than by
// Run.workspaceId: with both equalities on Run, the planner may walk the workspace's runs by time
// (Run_workspaceId_createdAt_idx) past every other suite's newer runs, a cost that grows with
// the workspace instead of the window. The suite id stays a constant on Run (not a subquery's
// result) so that the planner knows how many runs the suite has and reads them in index order.

/** Runs of alias `r`'s suite, when the suite belongs to the workspace (a one-time check, else no row). */
function suiteRuns(alias: string, workspaceId: string, suiteId: string): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(alias)}."suiteId" = ${suiteId}::uuid
    AND EXISTS (SELECT 1 FROM "Suite" s WHERE s."id" = ${suiteId}::uuid AND s."workspaceId" = ${workspaceId}::uuid)`;
}

/**
 * A trend point as the query returns it: before dates, metadata, the pass rate and the pass@1
 * interval are put in shape, with the metric averages.
 */
type TrendRow = Omit<TrendPoint, "created_at" | "metadata" | "pass_rate" | "pass_at_1_ci95"> & {
  created_at: Date;
  metadata: unknown;
  averages: unknown;
  ci_low: number | null;
  ci_high: number | null;
};

/**
 * A summary fraction (0..1) as a percentage with one decimal, like `pass_rate`; NULL when the
 * field is absent or not a number (summaries written before trials have no pass@1).
 */
function summaryPercent(field: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`CASE WHEN jsonb_typeof(${field}) = 'number' THEN round((${field})::text::numeric * 100, 1)::float8 END`;
}

/**
 * The last `limit` finished ordinary runs, oldest → newest, from Run columns and the summary's
 * `average_scores`, `pass_at_1` and `pass_at_1_ci95` (read in SQL: no summary reaches JavaScript).
 */
export function trendSql(workspaceId: string, suiteId: string, limit: number): Prisma.Sql {
  return Prisma.sql`
    SELECT * FROM (
      SELECT r."id" AS run_id, r."number", r."createdAt" AS created_at, r."metadata", r."status"::text AS status,
             r."passedCases" AS passed, r."failedCases" AS failed, r."errorCases" AS errors,
             r."skippedCases" AS skipped, r."totalCases" AS total,
             (extract(epoch FROM (r."completedAt" - coalesce(r."startedAt", r."createdAt"))) * 1000)::int AS duration_ms,
             CASE WHEN jsonb_typeof(r."summary" -> 'average_scores') = 'object' THEN r."summary" -> 'average_scores' END AS averages,
             ${summaryPercent(Prisma.sql`r."summary" -> 'pass_at_1'`)} AS pass_at_1,
             CASE WHEN jsonb_typeof(r."summary" #> '{pass_at_1_ci95,0}') = 'number'
                   AND jsonb_typeof(r."summary" #> '{pass_at_1_ci95,1}') = 'number'
               THEN ${summaryPercent(Prisma.sql`r."summary" #> '{pass_at_1_ci95,0}'`)} END AS ci_low,
             CASE WHEN jsonb_typeof(r."summary" #> '{pass_at_1_ci95,0}') = 'number'
                   AND jsonb_typeof(r."summary" #> '{pass_at_1_ci95,1}') = 'number'
               THEN ${summaryPercent(Prisma.sql`r."summary" #> '{pass_at_1_ci95,1}'`)} END AS ci_high
      FROM "Run" r
      WHERE ${suiteRuns("r", workspaceId, suiteId)} AND ${ordinaryRunSql("r")} AND r."status" IN ('completed', 'failed', 'cancelled')
      ORDER BY r."createdAt" DESC, r."id" DESC
      LIMIT ${limit}
    ) last_runs
    ORDER BY created_at ASC, run_id ASC`;
}

type TagRow = { tag: string; passed: number; failed: number; errors: number; runs: number };

/**
 * Pass rate per tag over the case results of the latest `runs` completed ordinary runs (unnest + GROUP
 * BY). The only history query that reads case results: at most MAX_TAG_RUNS runs of them,
 * found through CaseResult (runId, status).
 */
export function tagSql(workspaceId: string, suiteId: string, runs: number): Prisma.Sql {
  return Prisma.sql`
    WITH recent AS (
      SELECT r."id" FROM "Run" r
      WHERE ${suiteRuns("r", workspaceId, suiteId)} AND ${ordinaryRunSql("r")} AND r."status" = 'completed'
      ORDER BY r."createdAt" DESC, r."id" DESC
      LIMIT ${runs}
    )
    SELECT t.tag,
           count(*) FILTER (WHERE c."status" = 'passed')::int AS passed,
           count(*) FILTER (WHERE c."status" = 'failed')::int AS failed,
           count(*) FILTER (WHERE c."status" = 'error')::int AS errors,
           (SELECT count(*) FROM recent)::int AS runs
    FROM recent
    JOIN "CaseResult" c ON c."runId" = recent."id"
    CROSS JOIN LATERAL unnest(c."tags") AS t(tag)
    GROUP BY t.tag
    ORDER BY t.tag`;
}

type LatestRow = {
  /** null when the suite has no run yet (the row still comes: the suite exists). */
  id: string | null;
  number: number;
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

/**
 * The newest ordinary run of any status, the number of active runs (experiments included: they
 * run too) and the number of completed ordinary runs (up to `tagRuns`); no row when the suite is not the workspace's (the suite check of the analytics). Counting active runs walks the suite's index entries (status is included in the
 * index, so no table row is read for it).
 */
export function latestSql(workspaceId: string, suiteId: string, tagRuns: number): Prisma.Sql {
  return Prisma.sql`
    SELECT l."id", l."number", l."status"::text AS status, l."createdAt" AS created_at, l."totalCases" AS total,
           l."passedCases" AS passed, l."failedCases" AS failed, l."errorCases" AS errors, l."skippedCases" AS skipped,
           (SELECT count(*) FROM "Run" a
             WHERE a."suiteId" = s."id" AND a."status" IN ('pending', 'running'))::int AS active,
           (SELECT count(*) FROM (
              SELECT 1 FROM "Run" c
              WHERE c."suiteId" = s."id" AND ${ordinaryRunSql("c")} AND c."status" = 'completed'
              ORDER BY c."createdAt" DESC, c."id" DESC
              LIMIT ${tagRuns}) k)::int AS completed_runs
    FROM "Suite" s
    LEFT JOIN LATERAL (
      SELECT r."id", r."number", r."status", r."createdAt", r."totalCases", r."passedCases", r."failedCases", r."errorCases", r."skippedCases"
      FROM "Run" r
      WHERE r."suiteId" = s."id" AND ${ordinaryRunSql("r")}
      ORDER BY r."createdAt" DESC, r."id" DESC
      LIMIT 1
    ) l ON true
    WHERE s."id" = ${suiteId}::uuid AND s."workspaceId" = ${workspaceId}::uuid`;
}

/** A stored metadata object as string pairs (anything else is left out). */
export function stringMap(value: unknown): Record<string, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"));
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
 * Trend, metric averages and tag pass rates of a suite's runs. Three small indexed queries sent
 * together; the latest-run query doubles as the suite check (a foreign suite matches no run in
 * the other two either). Nothing is aggregated in JavaScript beyond shaping at most `runs` rows.
 */
export async function getSuiteAnalytics(ctx: WorkspaceContext, suiteId: string, opts: SuiteAnalyticsOptions = {}): Promise<SuiteAnalytics> {
  if (!isUuid(suiteId)) throw new NotFoundError("Suite");
  const runs = clamp(opts.runs, DEFAULT_TREND_RUNS, MAX_TREND_RUNS);
  const tagRuns = clamp(opts.tagRuns, 1, MAX_TAG_RUNS);
  const [trend, tags, [latest]] = await Promise.all([
    db.$queryRaw<TrendRow[]>(trendSql(ctx.workspaceId, suiteId, runs)),
    db.$queryRaw<TagRow[]>(tagSql(ctx.workspaceId, suiteId, tagRuns)),
    db.$queryRaw<LatestRow[]>(latestSql(ctx.workspaceId, suiteId, tagRuns)),
  ]);
  if (!latest) throw new NotFoundError("Suite");

  const metricNames = new Set<string>();
  const metricTrend: MetricTrendPoint[] = [];
  for (const r of trend) {
    const averages = numericAverages(r.averages);
    const names = Object.keys(averages);
    if (names.length === 0) continue;
    names.forEach((n) => metricNames.add(n));
    metricTrend.push({ run_id: r.run_id, number: r.number, created_at: r.created_at.toISOString(), averages });
  }

  return {
    trend: trend.map((r) => ({
      run_id: r.run_id,
      number: r.number,
      created_at: r.created_at.toISOString(),
      metadata: stringMap(r.metadata),
      status: r.status,
      pass_rate: rate(r.passed, r.passed + r.failed + r.errors),
      passed: r.passed,
      failed: r.failed,
      errors: r.errors,
      skipped: r.skipped,
      total: r.total,
      duration_ms: r.duration_ms,
      pass_at_1: r.pass_at_1,
      pass_at_1_ci95: r.ci_low !== null && r.ci_high !== null ? [r.ci_low, r.ci_high] : null,
    })),
    metric_trend: metricTrend,
    metric_names: [...metricNames].sort(),
    tag_pass_rates: tags.map((t) => {
      const total = t.passed + t.failed + t.errors;
      return { tag: t.tag, passed: t.passed, failed: t.failed, errors: t.errors, total, pass_rate: rate(t.passed, total) };
    }),
    tag_runs: latest.completed_runs,
    latest: latest.id
      ? {
          id: latest.id,
          number: latest.number,
          status: latest.status,
          created_at: latest.created_at.toISOString(),
          ...caseCounts(latest),
        }
      : null,
    active_runs: latest.active,
  };
}

/** A runs list row's columns of `Run` r (no snapshots, options or summary): what `toRunHistoryRow` reads. */
export const RUN_ROW_COLUMNS = Prisma.sql`r."id", r."number", r."metadata", r."status"::text AS status, r."triggeredBy"::text AS triggered_by,
  r."createdAt" AS created_at, r."startedAt" AS started_at, r."completedAt" AS completed_at, r."totalCases" AS total,
  r."passedCases" AS passed, r."failedCases" AS failed, r."errorCases" AS errors, r."skippedCases" AS skipped,
  r."comparisonId" AS comparison_id, r."armIndex" AS arm_index, r."matrixId" AS matrix_id, r."combinationIndex" AS combination_index,
  r."costUsd" AS cost_usd`;

const runsPageCursor = z.object({ c: cursorFields.timestamp, id: cursorFields.id });

/**
 * One page of the suite's runs of `kind` (its history by default, or its experiments), newest
 * first, keyset on (createdAt, id): the columns of the history table only (no snapshots, options
 * or summary), in the index's order.
 */
export function runsPageSql(
  workspaceId: string,
  suiteId: string,
  q: { cursor?: string; limit: number; status?: RunStatus; kind?: RunKind },
): Prisma.Sql {
  const cursor = decodeCursor(q.cursor, runsPageCursor);
  return Prisma.sql`
    SELECT ${RUN_ROW_COLUMNS}
    FROM "Run" r
    WHERE ${suiteRuns("r", workspaceId, suiteId)} ${runKindSql("r", q.kind ?? "ordinary")}
      ${q.status ? Prisma.sql`AND r."status" = ${q.status}::"RunStatus"` : Prisma.empty}
      ${cursor ? Prisma.sql`AND (r."createdAt", r."id") < (${new Date(cursor.c)}::timestamptz, ${cursor.id}::uuid)` : Prisma.empty}
    ORDER BY r."createdAt" DESC, r."id" DESC
    LIMIT ${q.limit + 1}`;
}

export type RunsPageRow = {
  id: string;
  number: number;
  metadata: unknown;
  status: RunStatus;
  triggered_by: string;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  total: number;
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  comparison_id: string | null;
  arm_index: number | null;
  matrix_id: string | null;
  combination_index: number | null;
  cost_usd: number | null;
};

/** One page of the suite's run history (newest first) as slim table rows, with the `/runs` API's cursors. */
export async function listSuiteRunsPage(
  ctx: WorkspaceContext,
  suiteId: string,
  q: { cursor?: string; limit?: number; status?: RunStatus; kind?: RunKind } = {},
): Promise<{ data: RunHistoryRow[]; next_cursor: string | null }> {
  if (!isUuid(suiteId)) throw new NotFoundError("Suite");
  const limit = clamp(q.limit, 20, 100);
  const sql = runsPageSql(ctx.workspaceId, suiteId, { cursor: q.cursor, status: q.status, kind: q.kind, limit });
  const [, rows] = await Promise.all([requireSuite(ctx, suiteId), db.$queryRaw<RunsPageRow[]>(sql)]);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    next_cursor: rows.length > limit && last ? encodeCursor({ c: last.created_at.toISOString(), id: last.id }) : null,
    data: page.map(toRunHistoryRow),
  };
}

/** A row of `RUN_ROW_COLUMNS` as the runs lists show it (the suite's history and the workspace's runs). */
export function toRunHistoryRow(r: RunsPageRow): RunHistoryRow {
  return {
    id: r.id,
    number: r.number,
    experiment: r.comparison_id !== null || r.matrix_id !== null,
    metadata: stringMap(r.metadata),
    status: r.status,
    triggered_by: r.triggered_by,
    created_at: r.created_at.toISOString(),
    started_at: iso(r.started_at),
    completed_at: iso(r.completed_at),
    ...caseCounts(r),
    duration_ms: r.started_at && r.completed_at ? r.completed_at.getTime() - r.started_at.getTime() : null,
    cost_usd: r.cost_usd,
    comparison_id: r.comparison_id,
    arm_index: r.arm_index,
    matrix_id: r.matrix_id,
    combination_index: r.combination_index,
  };
}
