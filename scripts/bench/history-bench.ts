// The history half of `npm run bench`: a suite with N completed runs × M case
// results of history (inserted in SQL with generate_series), LIST_SUITES more suites with a short
// history each, then median/p90 of every query the history pages send, of the services that
// combine them and of the whole page loaders, all in the workspace's row-level scope as a page
// request runs them. With `--explain`, the EXPLAIN (ANALYZE, BUFFERS) plan of each main query.
// Imports lib/: load it only after DATABASE_URL is set.
import { createRequire } from "node:module";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { withWorkspaceScope } from "@/lib/tenant-scope";
import { getSuiteAnalytics, latestSql, listSuiteRunsPage, runsPageSql, tagSql, trendSql } from "@/lib/runs/analytics";
import { listStatsSql, listSuites } from "@/lib/suites/service";
import { loadSuitesPage } from "@/lib/suites/loaders";
import { DEFAULT_TREND_WINDOW, HISTORY_PAGE_SIZE } from "@/lib/runs/suite-runs-location";
import { makeBenchSuite } from "./executor-bench";

const TAGS = ["billing", "refunds", "shipping", "account", "smoke"];
/** Extra suites in the suites list, each with LIST_SUITE_RUNS runs, so the list's sparkline query has a full page to serve. */
const LIST_SUITES = 40;
const LIST_SUITE_RUNS = 30;

export type QueryTiming = { name: string; medianMs: number; p90Ms: number; maxMs: number; rows: number };
export type QueryPlan = { name: string; plan: string };
export type HistoryBenchResult = {
  runs: number;
  casesPerRun: number;
  listSuites: number;
  insertMs: number;
  repeat: number;
  queries: QueryTiming[];
  explain: QueryPlan[];
  failures: string[];
};

/** Inserts `runs` completed runs × `casesPerRun` case results (with metric results and a summary) into the suite. */
export async function insertHistory(ctx: WorkspaceContext, suiteId: string, runs: number, casesPerRun: number) {
  // Pass/fail is a deterministic function of (run, position) so pass rates vary from run to run.
  await db.$executeRaw`
    INSERT INTO "Run" ("id", "workspaceId", "suiteId", "status", "triggeredBy", "concurrency", "agentSnapshot", "evalSnapshot",
                       "totalCases", "passedCases", "failedCases", "summary", "startedAt", "completedAt", "createdAt")
    SELECT gen_random_uuid(), ${ctx.workspaceId}::uuid, ${suiteId}::uuid, 'completed', 'schedule', 8, '{}'::jsonb, '{}'::jsonb,
           ${casesPerRun}::int, s.passed, ${casesPerRun}::int - s.passed,
           jsonb_build_object('total_tests', ${casesPerRun}::int, 'passed', s.passed, 'failed', ${casesPerRun}::int - s.passed,
             'pass_rate', round(100.0 * s.passed / ${casesPerRun}::int, 1),
             'average_scores', jsonb_build_object('groundedness', round((0.6 + 0.4 * random())::numeric, 3),
                                                  'relevance', round((0.5 + 0.5 * random())::numeric, 3))),
           s.at, s.at + interval '2 minutes', s.at
    FROM (
      SELECT g, now() - interval '1 day' - g * interval '1 hour' AS at,
             (SELECT count(*)::int FROM generate_series(0, ${casesPerRun}::int - 1) p WHERE (p * 7 + g * 3) % 10 < 8) AS passed
      FROM generate_series(1, ${runs}::int) g
    ) s`;
  await db.$executeRaw`
    INSERT INTO "CaseResult" ("id", "workspaceId", "runId", "testCaseId", "variant", "position", "status", "caseSnapshot", "name", "tags",
                              "transcript", "actualResponse", "metricResults", "promptTokens", "completionTokens", "latencyMs", "durationMs",
                              "startedAt", "completedAt", "createdAt")
    SELECT gen_random_uuid(), r."workspaceId", r."id", tc."id", 'baseline', tc."sortOrder",
           (CASE WHEN (tc."sortOrder" * 7 + r.g * 3) % 10 < 8 THEN 'passed' ELSE 'failed' END)::"CaseResultStatus",
           json_build_object('id', tc."id", 'name', tc."name", 'initial_message', tc."initialMessage"),
           tc."name", tc."tags",
           jsonb_build_array(jsonb_build_object('role', 'user', 'content', tc."initialMessage"),
                             jsonb_build_object('role', 'assistant', 'content', 'An answer of moderate length for the history rows.')),
           'An answer of moderate length for the history rows.',
           jsonb_build_array(jsonb_build_object('metric_name', 'groundedness', 'score', 0.8, 'passed', true),
                             jsonb_build_object('metric_name', 'relevance', 'score', 0.7, 'passed', true)),
           120, 40, 200, 210, r."createdAt", r."createdAt" + interval '1 second', r."createdAt"
    FROM (SELECT "id", "workspaceId", "createdAt", row_number() OVER (ORDER BY "createdAt" DESC)::int AS g
          FROM "Run" WHERE "suiteId" = ${suiteId}::uuid) r
    CROSS JOIN (SELECT "id", "name", "sortOrder", "tags", "initialMessage" FROM "TestCase" WHERE "suiteId" = ${suiteId}::uuid) tc`;
  // A history is old: autovacuum has long set the visibility map, so index-only scans skip the table.
  await db.$executeRaw`VACUUM (ANALYZE) "Run"`;
  await db.$executeRaw`VACUUM (ANALYZE) "CaseResult"`;
}

/**
 * The suite page loaders import `redirect` from next/navigation, whose module needs Next's
 * bundler (React client contexts) outside `next build`. The bench never redirects (no cursor),
 * so a stub stands in for it before the loaders are imported.
 */
async function importPageLoaders() {
  const require = createRequire(import.meta.url);
  const file = require.resolve("next/navigation");
  const redirect = (url: string): never => {
    throw new Error(`bench: unexpected redirect to ${url}`);
  };
  require.cache[file] ??= { id: file, filename: file, loaded: true, exports: { redirect } } as unknown as NodeJS.Module;
  const [{ loadSuiteRunsPage }, { loadSuitePage }] = await Promise.all([import("@/lib/runs/loaders"), import("@/lib/test-cases/loaders")]);
  return { loadSuiteRunsPage, loadSuitePage };
}

/** LIST_SUITES suites of the same agent with LIST_SUITE_RUNS completed runs each (no case results): the rest of the suites list. */
async function insertListSuites(ctx: WorkspaceContext, agentId: string) {
  await db.$executeRaw`
    INSERT INTO "Suite" ("id", "workspaceId", "agentId", "name", "updatedAt")
    SELECT gen_random_uuid(), ${ctx.workspaceId}::uuid, ${agentId}::uuid, 'bench-list-' || lpad(g::text, 3, '0'), now()
    FROM generate_series(1, ${LIST_SUITES}::int) g`;
  await db.$executeRaw`
    INSERT INTO "Run" ("id", "workspaceId", "suiteId", "status", "triggeredBy", "concurrency", "agentSnapshot", "evalSnapshot",
                       "totalCases", "passedCases", "failedCases", "startedAt", "completedAt", "createdAt")
    SELECT gen_random_uuid(), s."workspaceId", s."id", CASE WHEN g % 7 = 0 THEN 'cancelled' ELSE 'completed' END::"RunStatus",
           'schedule', 8, '{}'::jsonb, '{}'::jsonb, 10, (g * 3) % 11, 10 - (g * 3) % 11,
           now() - g * interval '1 hour', now() - g * interval '1 hour' + interval '1 minute', now() - g * interval '1 hour'
    FROM "Suite" s CROSS JOIN generate_series(1, ${LIST_SUITE_RUNS}::int) g
    WHERE s."workspaceId" = ${ctx.workspaceId}::uuid AND s."name" LIKE 'bench-list-%'`;
  await db.$executeRaw`VACUUM (ANALYZE) "Suite"`;
  await db.$executeRaw`VACUUM (ANALYZE) "Run"`;
}

/** Median/p90/max of `repeat` calls after two warm-ups (connections, plans, JIT of the JS path), in the workspace's scope. */
async function time(ctx: WorkspaceContext, name: string, repeat: number, fn: () => Promise<number>): Promise<QueryTiming> {
  const scoped = () => withWorkspaceScope(ctx.workspaceId, fn);
  let rows = 0;
  for (let i = 0; i < 2; i++) rows = await scoped();
  const samples: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    rows = await scoped();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { name, medianMs: at(0.5), p90Ms: at(0.9), maxMs: samples[samples.length - 1]!, rows };
}

/** EXPLAIN (ANALYZE, BUFFERS) of one statement, run as a page runs it: in a transaction that declared the workspace (row-level security on). */
async function explain(ctx: WorkspaceContext, name: string, sql: Prisma.Sql): Promise<QueryPlan> {
  const rows = await withWorkspaceScope(ctx.workspaceId, () =>
    db.$transaction((tx) => tx.$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`EXPLAIN (ANALYZE, BUFFERS) ${sql}`)),
  );
  return { name, plan: rows.map((r) => r["QUERY PLAN"]).join("\n") };
}

export async function benchHistory(opts: {
  ctx: WorkspaceContext;
  baseUrl: string;
  runs: number;
  casesPerRun: number;
  repeat?: number;
  explain?: boolean;
}): Promise<HistoryBenchResult> {
  const { ctx, runs, casesPerRun } = opts;
  const repeat = opts.repeat ?? 20;
  const failures: string[] = [];
  const { suiteId, agentId } = await makeBenchSuite(ctx, {
    baseUrl: opts.baseUrl,
    cases: casesPerRun,
    name: `bench-history-${runs}`,
    tags: (i) => [TAGS[i % TAGS.length]!, ...(i % 3 === 0 ? ["smoke"] : [])].filter((t, k, a) => a.indexOf(t) === k),
  });
  const t = performance.now();
  await insertHistory(ctx, suiteId, runs, casesPerRun);
  await insertListSuites(ctx, agentId);
  const insertMs = performance.now() - t;
  const w = ctx.workspaceId;
  const suiteIds = (
    await db.suite.findMany({
      where: { workspaceId: w, deletedAt: null },
      select: { id: true },
      orderBy: [{ name: "asc" }, { id: "asc" }],
      take: 50,
    })
  ).map((s) => s.id);
  const secondPage = (await listSuiteRunsPage(ctx, suiteId, { limit: HISTORY_PAGE_SIZE })).next_cursor ?? undefined;

  const main: { name: string; sql: Prisma.Sql }[] = [
    { name: `trend (last ${DEFAULT_TREND_WINDOW} finished runs)`, sql: trendSql(w, suiteId, DEFAULT_TREND_WINDOW) },
    { name: "tags (latest completed run)", sql: tagSql(w, suiteId, 1) },
    { name: "latest run + active/completed counts", sql: latestSql(w, suiteId, 1) },
    { name: `runs page (${HISTORY_PAGE_SIZE} rows)`, sql: runsPageSql(w, suiteId, { limit: HISTORY_PAGE_SIZE }) },
    { name: `suites list stats (${suiteIds.length} suites: cases + sparkline)`, sql: listStatsSql(w, suiteIds) },
  ];
  const extra: { name: string; sql: Prisma.Sql }[] = [
    { name: "trend (last 500 finished runs)", sql: trendSql(w, suiteId, 500) },
    { name: "tags (last 50 completed runs)", sql: tagSql(w, suiteId, 50) },
    { name: `runs page 2 (cursor)`, sql: runsPageSql(w, suiteId, { limit: HISTORY_PAGE_SIZE, cursor: secondPage }) },
  ];
  const queries: QueryTiming[] = [];
  for (const q of [...main, ...extra]) {
    queries.push(await time(ctx, `sql: ${q.name}`, repeat, async () => (await db.$queryRaw<unknown[]>(q.sql)).length));
  }
  queries.push(
    await time(
      ctx,
      "service: getSuiteAnalytics (defaults)",
      repeat,
      async () => (await getSuiteAnalytics(ctx, suiteId, { runs: DEFAULT_TREND_WINDOW })).trend.length,
    ),
    await time(
      ctx,
      "service: getSuiteAnalytics (500 runs, tags over 50)",
      repeat,
      async () => (await getSuiteAnalytics(ctx, suiteId, { runs: 500, tagRuns: 50 })).trend.length,
    ),
    await time(
      ctx,
      "service: listSuiteRunsPage (20)",
      repeat,
      async () => (await listSuiteRunsPage(ctx, suiteId, { limit: HISTORY_PAGE_SIZE })).data.length,
    ),
    await time(ctx, "service: listSuites (first page)", repeat, async () => (await listSuites(ctx)).data.length),
    await time(ctx, "loader: suites list page", repeat, async () => (await loadSuitesPage(ctx, {})).suites.length),
  );
  const { loadSuiteRunsPage, loadSuitePage } = await importPageLoaders();
  queries.push(
    await time(ctx, "loader: suite runs & trends page", repeat, async () => (await loadSuiteRunsPage(ctx, suiteId, {})).runs.data.length),
    await time(ctx, "loader: suite page (test cases)", repeat, async () => (await loadSuitePage(ctx, suiteId, {})).rows.length),
  );
  const plans: QueryPlan[] = [];
  if (opts.explain) for (const q of main) plans.push(await explain(ctx, q.name, q.sql));

  const analytics = await getSuiteAnalytics(ctx, suiteId, { runs: 500, tagRuns: 50 });
  if (analytics.trend.length !== Math.min(runs, 500))
    failures.push(`analytics trend has ${analytics.trend.length} points, expected ${Math.min(runs, 500)}`);
  if (runs > 0 && analytics.metric_names.join(",") !== "groundedness,relevance")
    failures.push(`analytics metric names: ${analytics.metric_names.join(",")}`);
  if (runs > 0 && analytics.tag_pass_rates.length === 0) failures.push("analytics returned no tag pass rates");
  const page = await listSuiteRunsPage(ctx, suiteId, { limit: 50 });
  if (page.data.length !== Math.min(runs, 50)) failures.push(`runs page returned ${page.data.length} runs, expected ${Math.min(runs, 50)}`);
  const list = await listSuites(ctx, { limit: 200 });
  const history = list.data.find((s) => s.id === suiteId);
  const sparkline = Math.min(runs, 20);
  if (history?.recent_pass_rates.length !== sparkline)
    failures.push(`suites list sparkline has ${history?.recent_pass_rates.length ?? "no"} points, expected ${sparkline}`);
  if (runs > 0 && history?.last_pass_rate !== analytics.trend.at(-1)?.pass_rate)
    failures.push(`suites list last pass rate ${history?.last_pass_rate} ≠ the trend's last ${analytics.trend.at(-1)?.pass_rate}`);
  return { runs, casesPerRun, listSuites: LIST_SUITES, insertMs, repeat, queries, explain: plans, failures };
}
