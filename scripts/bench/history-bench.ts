// The suite-page half of `npm run bench`: a suite with N completed runs of history (inserted in
// SQL with generate_series), then the median time of the queries the suite page makes.
// Imports lib/: load it only after DATABASE_URL is set.
import { db } from "@/lib/db";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { listRuns } from "@/lib/runs/service";
import { getSuiteAnalytics, listSuiteRunsPage } from "@/lib/runs/analytics";
import { makeBenchSuite } from "./executor-bench";

const TAGS = ["billing", "refunds", "shipping", "account", "smoke"];

export type QueryTiming = { name: string; medianMs: number; p90Ms: number; maxMs: number; rows: number };
export type HistoryBenchResult = { runs: number; casesPerRun: number; insertMs: number; queries: QueryTiming[]; failures: string[] };

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
  await db.$executeRaw`ANALYZE "Run"`;
  await db.$executeRaw`ANALYZE "CaseResult"`;
}

async function time(name: string, repeat: number, fn: () => Promise<number>): Promise<QueryTiming> {
  let rows = 0;
  for (let i = 0; i < 2; i++) rows = await fn(); // warm-up: connections, plans, JIT of the JS path
  const samples: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    rows = await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
  return { name, medianMs: at(0.5), p90Ms: at(0.9), maxMs: samples[samples.length - 1]!, rows };
}

export async function benchHistory(opts: {
  ctx: WorkspaceContext;
  baseUrl: string;
  runs: number;
  casesPerRun: number;
  repeat?: number;
}): Promise<HistoryBenchResult> {
  const { ctx, runs, casesPerRun } = opts;
  const repeat = opts.repeat ?? 20;
  const failures: string[] = [];
  const { suiteId } = await makeBenchSuite(ctx, {
    baseUrl: opts.baseUrl,
    cases: casesPerRun,
    name: `bench-history-${runs}`,
    tags: (i) => [TAGS[i % TAGS.length]!, ...(i % 3 === 0 ? ["smoke"] : [])].filter((t, k, a) => a.indexOf(t) === k),
  });
  const t = performance.now();
  await insertHistory(ctx, suiteId, runs, casesPerRun);
  const insertMs = performance.now() - t;

  const queries = [
    await time("listRuns (limit 50)", repeat, async () => (await listRuns(ctx, suiteId, { limit: 50 })).data.length),
    await time("listSuiteRunsPage (limit 20)", repeat, async () => (await listSuiteRunsPage(ctx, suiteId, { limit: 20 })).data.length),
    await time("getSuiteAnalytics (defaults)", repeat, async () => (await getSuiteAnalytics(ctx, suiteId)).trend.length),
    await time(
      "getSuiteAnalytics (500 runs, tags over 50)",
      repeat,
      async () => (await getSuiteAnalytics(ctx, suiteId, { runs: 500, tagRuns: 50 })).trend.length,
    ),
  ];
  const analytics = await getSuiteAnalytics(ctx, suiteId, { runs: 500, tagRuns: 50 });
  if (analytics.trend.length !== Math.min(runs, 500))
    failures.push(`analytics trend has ${analytics.trend.length} points, expected ${Math.min(runs, 500)}`);
  if (runs > 0 && analytics.metric_names.join(",") !== "groundedness,relevance")
    failures.push(`analytics metric names: ${analytics.metric_names.join(",")}`);
  if (runs > 0 && analytics.tag_pass_rates.length === 0) failures.push("analytics returned no tag pass rates");
  const page = await listRuns(ctx, suiteId, { limit: 50 });
  if (page.data.length !== Math.min(runs, 50)) failures.push(`listRuns returned ${page.data.length} runs, expected ${Math.min(runs, 50)}`);
  return { runs, casesPerRun, insertMs, queries, failures };
}
