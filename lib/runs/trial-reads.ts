/**
 * Trials read from the database: a run's case results grouped by test case (the per-case list of
 * GET /api/v1/runs/{id}/cases, the run summary's trial figures), a case's results across runs
 * with its flip rate (GET /api/v1/test-cases/{id}/history) and the suite's flakiest cases. SQL
 * groups and counts; the figures themselves come from ./trials.ts, so every reader computes a
 * pass rate, a pass@k or a stability label the same way. Every query is scoped by `workspaceId`.
 */
import "server-only";
import { z } from "zod";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { NotFoundError } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { cursorFields, decodeCursor, encodeCursor } from "@/lib/serialize";
import { caseTrialStats, flipRate, PASS_AT_1_INTERVAL_METHOD, runTrialStats, type Stability } from "@/lib/runs/trials";
import type { RunCasesQuery } from "@/lib/runs/schemas";
import type { caseHistoryResource } from "@/lib/runs/openapi";
import type { RunCaseDto } from "@/lib/runs/dto";

/** A run's results of one case share this key: the test case, or its snapshot's id when the case was deleted. */
const CASE_KEY = Prisma.sql`coalesce(c."testCaseId"::text, c."caseSnapshot"->>'id')`;

/** The stability label in SQL, the same rule as ./trials.ts `caseTrialStats` (a test holds them together). */
const STABILITY_SQL = Prisma.sql`CASE WHEN trials = 0 THEN NULL WHEN errored = trials THEN 'error'
  WHEN passed = trials - errored THEN 'stable_pass' WHEN passed = 0 THEN 'stable_fail' ELSE 'flaky' END`;

type CaseCountsRow = {
  case_key: string;
  test_case_id: string | null;
  name: string;
  tags: string[];
  pos: number;
  trials: number;
  passed: number;
  errored: number;
  results: RunCaseDto["results"];
};

/** Per case of the run: executed trials, passed and errored ones (the summary's input; no names or strips). */
async function caseCounts(runId: string, client: Pick<Tx, "$queryRaw">) {
  return client.$queryRaw<{ trials: number; passed: number; errored: number }[]>`
    SELECT count(*) FILTER (WHERE c."status" IN ('passed', 'failed', 'error'))::int AS trials,
           count(*) FILTER (WHERE c."status" = 'passed')::int AS passed,
           count(*) FILTER (WHERE c."status" = 'error')::int AS errored
    FROM "CaseResult" c WHERE c."runId" = ${runId}::uuid
    GROUP BY ${CASE_KEY}`;
}

/**
 * The run summary's trial figures: pass@1 with its case-level bootstrap interval, pass@k, pass^k
 * and the flaky count, over the run's cases (errors apart). With one trial per case, pass@1 is the
 * pass rate over judged cases and still gets its interval.
 */
export async function runTrialSummary(runId: string, trials: number, client: Pick<Tx, "$queryRaw"> = db) {
  const stats = runTrialStats((await caseCounts(runId, client)).map(caseTrialStats));
  return {
    trials,
    judged_cases: stats.judged_cases,
    pass_at_1: stats.pass_at_1,
    pass_at_1_ci95: stats.pass_at_1_ci95,
    pass_at_1_ci95_method: PASS_AT_1_INTERVAL_METHOD,
    pass_at_k: stats.pass_at_k,
    pass_all_k: stats.pass_all_k,
    flaky_cases: stats.flaky_cases,
    error_only_cases: stats.error_only_cases,
  };
}
export type RunTrialSummary = Awaited<ReturnType<typeof runTrialSummary>>;

const caseCursor = z.object({ p: cursorFields.int });

/**
 * GET /api/v1/runs/{id}/cases: one row per test case of the run in case order, with its trials'
 * figures and one mark per trial (id, trial, status) for the trial strip. Keyset pages on the
 * case's first position; `stability` and `tag` filter in SQL.
 */
export async function listRunCases(
  ctx: WorkspaceContext,
  runId: string,
  q: RunCasesQuery,
): Promise<{ data: RunCaseDto[]; next_cursor: string | null }> {
  requireRole(ctx, "viewer");
  if (!isUuid(runId)) throw new NotFoundError("Run");
  const run = await db.run.findFirst({ where: { id: runId, workspaceId: ctx.workspaceId }, select: { id: true } });
  if (!run) throw new NotFoundError("Run");
  const cursor = decodeCursor(q.cursor, caseCursor);
  const rows = await db.$queryRaw<(CaseCountsRow & { stability: Stability | null })[]>`
    SELECT *, ${STABILITY_SQL} AS stability FROM (
      SELECT ${CASE_KEY} AS case_key, min(c."testCaseId"::text) AS test_case_id, min(c."name") AS name, min(c."tags") AS tags,
             min(c."position")::int AS pos,
             count(*) FILTER (WHERE c."status" IN ('passed', 'failed', 'error'))::int AS trials,
             count(*) FILTER (WHERE c."status" = 'passed')::int AS passed,
             count(*) FILTER (WHERE c."status" = 'error')::int AS errored,
             json_agg(json_build_object('id', c."id", 'trial', c."repetition", 'status', c."status") ORDER BY c."repetition") AS results
      FROM "CaseResult" c
      WHERE c."runId" = ${runId}::uuid AND c."workspaceId" = ${ctx.workspaceId}::uuid
            ${q.tag ? Prisma.sql`AND c."tags" @> ARRAY[${q.tag}::text]` : Prisma.empty}
      GROUP BY 1
    ) per_case
    WHERE true ${cursor ? Prisma.sql`AND pos > ${cursor.p}::int` : Prisma.empty}
          ${q.stability ? Prisma.sql`AND ${STABILITY_SQL} = ${q.stability}` : Prisma.empty}
    ORDER BY pos
    LIMIT ${q.limit + 1}::int`;
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    data: page.map((r) => ({
      test_case_id: r.test_case_id,
      name: r.name,
      tags: r.tags,
      ...caseTrialStats({ trials: r.trials, passed: r.passed, errored: r.errored }),
      results: r.results,
    })),
    next_cursor: rows.length > q.limit && last ? encodeCursor({ p: last.pos }) : null,
  };
}
export type { RunCaseDto };

/** Finished statuses a history shows (skipped and unfinished results say nothing about the case). */
const HISTORY_STATUSES = Prisma.sql`('passed', 'failed', 'error')`;

/**
 * GET /api/v1/test-cases/{id}/history: the case's last `limit` results in the suite's history
 * (ordinary runs: comparison arms and matrix combinations are experiments), newest first, each
 * trial its own entry, and the flip rate over the judged ones, oldest to newest.
 */
export async function caseHistory(ctx: WorkspaceContext, testCaseId: string, limit: number): Promise<CaseHistoryDto> {
  requireRole(ctx, "viewer");
  if (!isUuid(testCaseId)) throw new NotFoundError("Test case");
  const testCase = await db.testCase.findFirst({ where: { id: testCaseId, workspaceId: ctx.workspaceId }, select: { id: true } });
  if (!testCase) throw new NotFoundError("Test case");
  const rows = await db.$queryRaw<
    {
      id: string;
      status: CaseHistoryDto["results"][number]["status"];
      trial: number;
      run_id: string;
      run_number: number;
      created_at: Date;
      completed_at: Date | null;
    }[]
  >`
    SELECT c."id", c."status"::text AS status, c."repetition" AS trial, r."id" AS run_id, r."number" AS run_number,
           c."createdAt" AS created_at, c."completedAt" AS completed_at
    FROM "CaseResult" c JOIN "Run" r ON r."id" = c."runId" AND r."workspaceId" = c."workspaceId"
    WHERE c."testCaseId" = ${testCaseId}::uuid AND c."workspaceId" = ${ctx.workspaceId}::uuid
      AND c."status"::text IN ${HISTORY_STATUSES} AND r."comparisonId" IS NULL AND r."matrixId" IS NULL
    ORDER BY c."createdAt" DESC, c."repetition" DESC
    LIMIT ${limit}::int`;
  const judged = rows.filter((r) => r.status !== "error").reverse();
  return {
    test_case_id: testCaseId,
    flip_rate: flipRate(judged.map((r) => r.status === "passed")),
    results: rows.map((r) => ({
      id: r.id,
      status: r.status,
      trial: r.trial,
      run_id: r.run_id,
      run_number: r.run_number,
      created_at: r.created_at.toISOString(),
      completed_at: r.completed_at?.toISOString() ?? null,
    })),
  };
}
export type CaseHistoryDto = z.output<typeof caseHistoryResource>;

/**
 * The flip rate of each given case over its last `window` judged results in the suite's history
 * (ordinary runs) before `exceptRunId`, for the regression alert's "flaky, not a regression": the
 * run being judged is left out, so one pass → fail flip is a regression, not flakiness. Cases with
 * fewer than `minResults` judged results are absent.
 */
export async function historyFlipRates(
  workspaceId: string,
  testCaseIds: string[],
  opts: { window: number; exceptRunId: string; minResults: number },
  client: Pick<Tx, "$queryRaw"> = db,
) {
  if (testCaseIds.length === 0) return new Map<string, number>();
  const rows = await client.$queryRaw<{ test_case_id: string; statuses: string[] }[]>`
    SELECT t.id::text AS test_case_id, array(
             SELECT c."status"::text FROM "CaseResult" c JOIN "Run" r ON r."id" = c."runId"
             WHERE c."testCaseId" = t.id AND c."workspaceId" = ${workspaceId}::uuid AND c."status" IN ('passed', 'failed')
               AND r."comparisonId" IS NULL AND r."matrixId" IS NULL AND c."runId" <> ${opts.exceptRunId}::uuid
             ORDER BY c."createdAt" DESC, c."repetition" DESC LIMIT ${opts.window}::int) AS statuses
    FROM unnest(${testCaseIds}::uuid[]) AS t(id)`;
  const out = new Map<string, number>();
  for (const r of rows) {
    if (r.statuses.length < opts.minResults) continue;
    out.set(r.test_case_id, flipRate(r.statuses.reverse().map((s) => s === "passed"))!);
  }
  return out;
}

/** How many of the suite's latest history runs the flaky-cases card looks at, and how many cases it lists. */
export const FLAKY_WINDOW_RUNS = 20;
export const FLAKY_LIST_SIZE = 10;

/**
 * The suite page's "Flaky cases": over the suite's last FLAKY_WINDOW_RUNS finished history runs,
 * the cases whose judged verdict changed most often between consecutive results (every trial a
 * result, in run then trial order), highest flip rate first. Works with one trial per run.
 */
export async function flakyCases(ctx: WorkspaceContext, suiteId: string) {
  requireRole(ctx, "viewer");
  if (!isUuid(suiteId)) throw new NotFoundError("Suite");
  const rows = await db.$queryRaw<{ test_case_id: string; name: string; results: number; passed: number; flips: number }[]>`
    WITH runs AS (
      SELECT r."id", r."createdAt" FROM "Run" r
      WHERE r."suiteId" = ${suiteId}::uuid AND r."workspaceId" = ${ctx.workspaceId}::uuid
        AND r."comparisonId" IS NULL AND r."matrixId" IS NULL AND r."status" IN ('completed', 'failed', 'cancelled')
      ORDER BY r."createdAt" DESC, r."id" DESC LIMIT ${FLAKY_WINDOW_RUNS}::int
    ), judged AS (
      SELECT c."testCaseId", c."status",
             lag(c."status") OVER (PARTITION BY c."testCaseId" ORDER BY runs."createdAt", runs."id", c."repetition") AS previous
      FROM runs JOIN "CaseResult" c ON c."runId" = runs."id"
      WHERE c."workspaceId" = ${ctx.workspaceId}::uuid AND c."status" IN ('passed', 'failed') AND c."testCaseId" IS NOT NULL
    )
    SELECT j."testCaseId"::text AS test_case_id, min(t."name") AS name, count(*)::int AS results,
           count(*) FILTER (WHERE j."status" = 'passed')::int AS passed,
           count(*) FILTER (WHERE j."previous" IS NOT NULL AND j."previous" <> j."status")::int AS flips
    FROM judged j JOIN "TestCase" t ON t."id" = j."testCaseId" AND t."workspaceId" = ${ctx.workspaceId}::uuid AND t."deletedAt" IS NULL
    GROUP BY j."testCaseId"
    HAVING count(*) FILTER (WHERE j."previous" IS NOT NULL AND j."previous" <> j."status") > 0
    ORDER BY count(*) FILTER (WHERE j."previous" IS NOT NULL AND j."previous" <> j."status")::float / (count(*) - 1) DESC, count(*) DESC, 2
    LIMIT ${FLAKY_LIST_SIZE}::int`;
  return rows.map((r) => ({ ...r, flip_rate: r.flips / (r.results - 1) }));
}
export type FlakyCaseDto = Awaited<ReturnType<typeof flakyCases>>[number];
