import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { getSuiteAnalytics, listSuiteRunsPage } from "@/lib/runs/analytics";
import { countStatuses, makeWorkspace, runRowData } from "../helpers/factories";
import { call } from "../helpers/api";
import { asOwner } from "../helpers/owner-db";
import { session } from "../helpers/session";

// The session routes read the signed-in user from next-auth; tests choose who that is.
vi.mock("@/lib/auth", () => import("../helpers/session"));

const { GET: analyticsRoute } = await import("@/app/api/w/[workspaceId]/suites/[suiteId]/analytics/route");
const { GET: runsRoute } = await import("@/app/api/w/[workspaceId]/suites/[suiteId]/analytics/runs/route");

type RunStatus = "pending" | "running" | "completed" | "failed" | "cancelled";
type CaseStatus = "pending" | "running" | "passed" | "failed" | "skipped" | "error";

async function makeSuite(ctx: WorkspaceContext) {
  const agent = await db.agent.create({ data: { workspaceId: ctx.workspaceId, name: `agent-${Math.random()}`, kind: "chat", tools: [] } });
  return db.suite.create({ data: { workspaceId: ctx.workspaceId, agentId: agent.id, name: `suite-${Math.random()}` } });
}

const base = Date.parse("2026-03-01T10:00:00.000Z");
const at = (minutes: number) => new Date(base + minutes * 60_000);

/** A run with its case results; Run totals are derived from the results as the executor does. */
async function makeRun(
  ctx: WorkspaceContext,
  suiteId: string,
  opts: {
    minute: number;
    status?: RunStatus;
    cases?: { status: CaseStatus; tags?: string[] }[];
    averageScores?: Record<string, number | string> | null;
    durationMs?: number;
    /** Extra summary fields (the trials figures) merged into the written summary. */
    summary?: Record<string, unknown>;
  },
) {
  const cases = opts.cases ?? [];
  const createdAt = at(opts.minute);
  const status = opts.status ?? "completed";
  const finished = ["completed", "failed", "cancelled"].includes(status);
  return db.run.create({
    data: {
      ...runRowData(ctx, suiteId, status, countStatuses(cases.map((c) => c.status))),
      summary:
        opts.averageScores === null || !finished ? undefined : { pass_rate: 0, average_scores: opts.averageScores ?? {}, ...opts.summary },
      createdAt,
      startedAt: createdAt,
      completedAt: finished ? new Date(createdAt.getTime() + (opts.durationMs ?? 1000)) : null,
      results: {
        create: cases.map((c, i) => ({
          workspaceId: ctx.workspaceId,
          position: i,
          status: c.status,
          caseSnapshot: {},
          name: `case ${i}`,
          tags: c.tags ?? [],
        })),
      },
    },
  });
}

const cases = (spec: Partial<Record<CaseStatus, number>>, tags: string[] = []) =>
  Object.entries(spec).flatMap(([status, n]) => Array.from({ length: n ?? 0 }, () => ({ status: status as CaseStatus, tags })));

beforeEach(() => {
  session.userId = null;
});

describe("getSuiteAnalytics: trend", () => {
  it("lists the last N finished runs oldest → newest with their counts, pass rate and duration", async () => {
    const { ctx } = await makeWorkspace("viewer");
    const suite = await makeSuite(ctx);
    // Inserted out of order: the trend orders by creation time.
    const r3 = await makeRun(ctx, suite.id, { minute: 30, cases: cases({ passed: 2, failed: 1, skipped: 1 }), durationMs: 4500 });
    const r1 = await makeRun(ctx, suite.id, { minute: 10, cases: cases({ passed: 1, failed: 1, error: 2 }) });
    const r2 = await makeRun(ctx, suite.id, { minute: 20, status: "cancelled", cases: cases({ passed: 1, skipped: 3 }) });
    await makeRun(ctx, suite.id, { minute: 40, status: "running", cases: cases({ passed: 1, pending: 2 }) });
    await makeRun(ctx, suite.id, { minute: 50, status: "pending", cases: cases({ pending: 3 }) });
    const r0 = await makeRun(ctx, suite.id, { minute: 5, status: "failed", cases: cases({ skipped: 2 }) });

    const a = await getSuiteAnalytics(ctx, suite.id);
    expect(a.trend.map((p) => p.run_id)).toEqual([r0.id, r1.id, r2.id, r3.id]);
    expect(a.trend[3]).toEqual({
      run_id: r3.id,
      // Numbered in the order the runs were created (inserted), whatever their timestamps say.
      number: 1,
      created_at: at(30).toISOString(),
      metadata: {},
      status: "completed",
      pass_rate: 66.7,
      passed: 2,
      failed: 1,
      errors: 0,
      skipped: 1,
      total: 4,
      duration_ms: 4500,
      // A summary written before trials: no pass@1, no interval.
      pass_at_1: null,
      pass_at_1_ci95: null,
    });
    expect(a.trend[1]).toMatchObject({ pass_rate: 25, passed: 1, failed: 1, errors: 2, total: 4 });
    expect(a.trend[2]).toMatchObject({ status: "cancelled", pass_rate: 100 });
    // Nothing executed: no pass rate rather than a misleading 0 %.
    expect(a.trend[0]).toMatchObject({ status: "failed", pass_rate: null, skipped: 2 });

    // Limited to the newest N, still oldest first.
    const last2 = await getSuiteAnalytics(ctx, suite.id, { runs: 2 });
    expect(last2.trend.map((p) => p.run_id)).toEqual([r2.id, r3.id]);

    expect(a.latest).toMatchObject({ status: "pending", total: 3, done: 0, pass_rate: null });
    expect(a.active_runs).toBe(2);
  });

  it("returns empty analytics for a suite without runs", async () => {
    const { ctx } = await makeWorkspace("viewer");
    const suite = await makeSuite(ctx);
    expect(await getSuiteAnalytics(ctx, suite.id)).toEqual({
      trend: [],
      metric_trend: [],
      metric_names: [],
      tag_pass_rates: [],
      tag_runs: 0,
      latest: null,
      active_runs: 0,
    });
  });
});

describe("getSuiteAnalytics: pass@1 interval", () => {
  it("reads each run's pass@1 and its interval from the summary as percentages; malformed or absent ones are null", async () => {
    const { ctx } = await makeWorkspace("viewer");
    const suite = await makeSuite(ctx);
    await makeRun(ctx, suite.id, {
      minute: 1,
      cases: cases({ passed: 3, failed: 1 }),
      summary: { pass_at_1: 0.75, pass_at_1_ci95: [0.40625, 1], pass_at_1_ci95_method: "bootstrap" },
    });
    await makeRun(ctx, suite.id, { minute: 2, cases: cases({ failed: 2 }), summary: { pass_at_1: 0, pass_at_1_ci95: null } });
    await makeRun(ctx, suite.id, {
      minute: 3,
      cases: cases({ passed: 1 }),
      summary: { pass_at_1: "high", pass_at_1_ci95: [0.5, "x"] },
    });
    await makeRun(ctx, suite.id, { minute: 4, cases: cases({ passed: 1 }), averageScores: null });

    const a = await getSuiteAnalytics(ctx, suite.id);
    expect(a.trend.map((p) => [p.pass_at_1, p.pass_at_1_ci95])).toEqual([
      [75, [40.6, 100]],
      [0, null],
      [null, null],
      [null, null],
    ]);
  });
});

describe("getSuiteAnalytics: metric averages", () => {
  it("reads per-metric averages from the run summaries, skipping runs without metrics and non-numbers", async () => {
    const { ctx } = await makeWorkspace("viewer");
    const suite = await makeSuite(ctx);
    const r1 = await makeRun(ctx, suite.id, {
      minute: 1,
      cases: cases({ passed: 1 }),
      averageScores: { relevance: 0.8, groundedness: 0.5 },
    });
    await makeRun(ctx, suite.id, { minute: 2, cases: cases({ passed: 1 }), averageScores: null });
    await makeRun(ctx, suite.id, { minute: 3, cases: cases({ passed: 1 }), averageScores: {} });
    const r4 = await makeRun(ctx, suite.id, {
      minute: 4,
      cases: cases({ failed: 1 }),
      averageScores: { relevance: 0.625, tone: "n/a", custom_metric: 1 },
    });

    const a = await getSuiteAnalytics(ctx, suite.id);
    expect(a.trend).toHaveLength(4);
    expect(a.metric_trend).toEqual([
      { run_id: r1.id, number: 1, created_at: at(1).toISOString(), averages: { relevance: 0.8, groundedness: 0.5 } },
      { run_id: r4.id, number: 4, created_at: at(4).toISOString(), averages: { relevance: 0.625, custom_metric: 1 } },
    ]);
    expect(a.metric_names).toEqual(["custom_metric", "groundedness", "relevance"]);
  });
});

describe("getSuiteAnalytics: pass rate by tag", () => {
  it("groups the latest completed run's case results by each of their tags; skipped cases do not count", async () => {
    const { ctx } = await makeWorkspace("viewer");
    const suite = await makeSuite(ctx);
    await makeRun(ctx, suite.id, { minute: 1, cases: cases({ failed: 5 }, ["billing", "old-only"]) });
    await makeRun(ctx, suite.id, {
      minute: 2,
      cases: [
        { status: "passed", tags: ["billing", "smoke"] },
        { status: "passed", tags: ["billing"] },
        { status: "failed", tags: ["billing", "smoke"] },
        { status: "error", tags: ["smoke"] },
        { status: "skipped", tags: ["smoke", "skipped-only"] },
        { status: "passed", tags: [] },
      ],
    });
    // Newer, but not completed: ignored.
    await makeRun(ctx, suite.id, { minute: 3, status: "running", cases: cases({ failed: 3 }, ["billing"]) });
    await makeRun(ctx, suite.id, { minute: 4, status: "cancelled", cases: cases({ failed: 3 }, ["billing"]) });

    const a = await getSuiteAnalytics(ctx, suite.id);
    expect(a.tag_runs).toBe(1);
    expect(a.tag_pass_rates).toEqual([
      { tag: "billing", passed: 2, failed: 1, errors: 0, total: 3, pass_rate: 66.7 },
      { tag: "skipped-only", passed: 0, failed: 0, errors: 0, total: 0, pass_rate: null },
      { tag: "smoke", passed: 1, failed: 1, errors: 1, total: 3, pass_rate: 33.3 },
    ]);

    // Over the last two completed runs the older run's results count too.
    const two = await getSuiteAnalytics(ctx, suite.id, { tagRuns: 2 });
    expect(two.tag_runs).toBe(2);
    expect(two.tag_pass_rates.find((t) => t.tag === "billing")).toEqual({
      tag: "billing",
      passed: 2,
      failed: 6,
      errors: 0,
      total: 8,
      pass_rate: 25,
    });
    expect(two.tag_pass_rates.find((t) => t.tag === "old-only")).toMatchObject({ total: 5, pass_rate: 0 });
  });
});

describe("workspace isolation", () => {
  it("refuses another workspace's suite and never mixes its runs in", async () => {
    const a = await makeWorkspace("owner");
    const b = await makeWorkspace("owner");
    const suiteA = await makeSuite(a.ctx);
    const suiteB = await makeSuite(b.ctx);
    await makeRun(a.ctx, suiteA.id, { minute: 1, cases: cases({ passed: 1 }, ["mine"]) });
    await makeRun(b.ctx, suiteB.id, { minute: 2, cases: cases({ failed: 2 }, ["theirs"]) });

    await expect(getSuiteAnalytics(a.ctx, suiteB.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(listSuiteRunsPage(a.ctx, suiteB.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getSuiteAnalytics(a.ctx, "not-a-uuid")).rejects.toBeInstanceOf(NotFoundError);

    const mine = await getSuiteAnalytics(a.ctx, suiteA.id);
    expect(mine.trend).toHaveLength(1);
    expect(mine.tag_pass_rates.map((t) => t.tag)).toEqual(["mine"]);
  });
});

describe("listSuiteRunsPage", () => {
  it("pages the history newest first with slim rows", async () => {
    const { ctx } = await makeWorkspace("viewer");
    const suite = await makeSuite(ctx);
    for (let i = 0; i < 5; i++) await makeRun(ctx, suite.id, { minute: i, cases: cases({ passed: i, failed: 1 }), durationMs: 2000 + i });
    const first = await listSuiteRunsPage(ctx, suite.id, { limit: 2 });
    expect(first.data.map((r) => r.created_at)).toEqual([at(4).toISOString(), at(3).toISOString()]);
    expect(first.data[0]).toMatchObject({
      status: "completed",
      triggered_by: "api",
      total: 5,
      done: 5,
      passed: 4,
      failed: 1,
      pass_rate: 80,
      duration_ms: 2004,
    });
    expect(first.data[0]).not.toHaveProperty("agent_snapshot");
    const second = await listSuiteRunsPage(ctx, suite.id, { limit: 2, cursor: first.next_cursor! });
    const third = await listSuiteRunsPage(ctx, suite.id, { limit: 2, cursor: second.next_cursor! });
    expect([...second.data, ...third.data].map((r) => r.created_at)).toEqual([at(2), at(1), at(0)].map((d) => d.toISOString()));
    expect(third.next_cursor).toBeNull();
  });
});

describe("session JSON routes", () => {
  it("answer members of the workspace and 404 for another workspace's suite", async () => {
    const { ctx, user } = await makeWorkspace("viewer");
    const other = await makeWorkspace("owner");
    const suite = await makeSuite(ctx);
    const foreign = await makeSuite(other.ctx);
    await makeRun(ctx, suite.id, { minute: 1, cases: cases({ passed: 1, failed: 1 }) });

    const params = { workspaceId: ctx.workspaceId, suiteId: suite.id };
    expect((await call(analyticsRoute, { params })).status).toBe(401);

    session.userId = user.id;
    const res = await call(analyticsRoute, { params, url: "/?runs=10" });
    expect(res.status).toBe(200);
    expect(res.json.trend).toHaveLength(1);
    expect(res.json.trend[0]).toMatchObject({ pass_rate: 50, passed: 1, failed: 1 });
    expect((await call(analyticsRoute, { params, url: "/?runs=501" })).status).toBe(400);

    const runs = await call(runsRoute, { params, url: "/?limit=1" });
    expect(runs.status).toBe(200);
    expect(runs.json.data).toHaveLength(1);
    expect(runs.json.next_cursor).toBeNull();

    const cross = await call(analyticsRoute, { params: { workspaceId: ctx.workspaceId, suiteId: foreign.id } });
    expect(cross.status).toBe(404);
    // Not a member of the other workspace at all.
    expect((await call(analyticsRoute, { params: { workspaceId: other.ctx.workspaceId, suiteId: foreign.id } })).status).toBe(404);
  });
});

describe("performance with 500 runs of history", () => {
  it("answers getSuiteAnalytics + the first history page quickly", async () => {
    const { ctx } = await makeWorkspace("viewer");
    const suite = await makeSuite(ctx);
    const noise = await makeSuite(ctx);
    await seedHistory(ctx.workspaceId, suite.id, 500, 20);
    await seedHistory(ctx.workspaceId, noise.id, 500, 20);
    // As the owner: under npm test's app role ANALYZE skips tables the role does not own (a
    // warning, no statistics), and the timings below would run on unanalysed tables.
    const analysed = await asOwner(async (client) => {
      await client.query(`ANALYZE "Run", "CaseResult"`);
      const res = await client.query<{ relname: string }>(
        `SELECT relname FROM pg_stat_user_tables WHERE relname IN ('Run', 'CaseResult') AND last_analyze IS NOT NULL ORDER BY relname`,
      );
      return res.rows.map((r) => r.relname);
    });
    expect(analysed).toEqual(["CaseResult", "Run"]);

    const a = await getSuiteAnalytics(ctx, suite.id, { runs: 500, tagRuns: 1 });
    expect(a.trend).toHaveLength(500);
    expect(a.metric_trend).toHaveLength(500);
    expect(a.tag_pass_rates.reduce((n, t) => n + t.passed + t.failed + t.errors, 0)).toBe(20 * 2); // every case has 2 tags
    const times: Record<string, number[]> = { default: [], max: [], tags10: [] };
    for (let i = 0; i < 15; i++) {
      let t = performance.now();
      await Promise.all([getSuiteAnalytics(ctx, suite.id), listSuiteRunsPage(ctx, suite.id, { limit: 20 })]);
      times.default!.push(performance.now() - t);
      t = performance.now();
      await Promise.all([getSuiteAnalytics(ctx, suite.id, { runs: 500 }), listSuiteRunsPage(ctx, suite.id, { limit: 20 })]);
      times.max!.push(performance.now() - t);
      t = performance.now();
      await getSuiteAnalytics(ctx, suite.id, { runs: 500, tagRuns: 10 });
      times.tags10!.push(performance.now() - t);
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    const report = Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, Math.round(median(xs) * 10) / 10]));
    process.stdout.write(
      `suite page queries, 500 runs × 20 results (median of 15, ms): analytics(50)+history page ${report.default}, ` +
        `analytics(500)+history page ${report.max}, analytics(500, tags over 10 runs) ${report.tags10}\n`,
    );
    expect(median(times.default!)).toBeLessThan(500);
    expect(median(times.max!)).toBeLessThan(500);
  }, 60_000);
});

/** `runs` completed runs × `perRun` case results with summaries and tags, via generate_series. */
async function seedHistory(workspaceId: string, suiteId: string, runs: number, perRun: number) {
  await db.$executeRaw`
    INSERT INTO "Run" ("id", "workspaceId", "suiteId", "status", "triggeredBy", "agentSnapshot", "totalCases", "passedCases",
                       "failedCases", "errorCases", "skippedCases", "summary", "startedAt", "completedAt", "createdAt")
    SELECT gen_random_uuid(), ${workspaceId}::uuid, ${suiteId}::uuid, 'completed', 'schedule', '{}'::jsonb, ${perRun}, p, ${perRun} - p - 1, 1, 0,
           jsonb_build_object('pass_rate', round(p * 100.0 / ${perRun}, 1),
             'average_scores', jsonb_build_object('relevance', round((0.5 + (g % 50) / 100.0)::numeric, 3), 'groundedness', 0.75)),
           ts, ts + interval '12 seconds', ts
    FROM generate_series(1, ${runs}) g,
         LATERAL (SELECT (g % ${perRun - 1})::int AS p, now() - (${runs} - g) * interval '1 hour' AS ts) x`;
  await db.$executeRaw`
    INSERT INTO "CaseResult" ("id", "workspaceId", "runId", "position", "status", "caseSnapshot", "name", "tags", "createdAt", "completedAt")
    SELECT gen_random_uuid(), r."workspaceId", r."id", i,
           (CASE WHEN i < r."passedCases" THEN 'passed' WHEN i = ${perRun} - 1 THEN 'error' ELSE 'failed' END)::"CaseResultStatus",
           '{}'::json, 'case ' || i, ARRAY['area-' || (i % 5), CASE WHEN i % 2 = 0 THEN 'even' ELSE 'odd' END],
           r."createdAt", r."completedAt"
    FROM "Run" r CROSS JOIN generate_series(0, ${perRun} - 1) i
    WHERE r."suiteId" = ${suiteId}::uuid AND r."workspaceId" = ${workspaceId}::uuid`;
}
