// `npm run bench -- --viewers N`: N dashboard users watching a run while it
// executes. Starts the production build (`next start`) on the bench database, creates the cases
// and starts every run through the REST API with the first-run API key, and runs the same
// 1,000-case run twice on the same suite: alone first, then with the viewers (scripts/bench/
// viewers-load.ts) polling the live run page's session routes. A short warm-up run with the
// viewers comes before both, so neither measured run pays the server's first compilations.
// Does not import lib/: the app runs in its own process(es), as deployed.
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { procCpuMs, type BenchFake } from "./fake";
import { signInCookie, startBenchApp, type BenchApp } from "./app-server";
import { startPgSampler, type ActiveStatement } from "./pg-sampler";
import { correctnessLine, loadAverage } from "./report";
import { PAGE_DATA, startViewers, warmRoutes, type ViewersLoadResult } from "./viewers-load";

/** Goal 6: page data p95 under this while the run executes … */
export const TARGET_PAGE_DATA_P95_MS = 300;
/** … and the run's wall time within this ratio of the same run alone. */
export const TARGET_WALL_RATIO = 1.1;
const WARMUP_CASES = 200;
const FINISHED = ["completed", "failed", "cancelled"];

export type ViewersPhase = {
  label: string;
  runId: string;
  wallMs: number;
  /** Run row createdAt → completedAt, as the database saw it. */
  dbWallMs: number | null;
  status: string;
  passed: number;
  loadBefore: string;
  loadAfter: string;
  /** CPU (ms) of the web process, the worker (when separate), PostgreSQL, the fake and this process (the viewers). */
  cpuMs: { web: number | null; worker: number | null; postgres: number | null; fake: number | null; bench: number };
  load: ViewersLoadResult | null;
  /** What PostgreSQL was running, sampled every 100 ms: statement, samples seen active, average active backends. */
  activeStatements: { samples: number; top: ActiveStatement[] };
};

export type ViewersBenchResult = {
  viewers: number;
  cases: number;
  concurrency: number;
  latencyMs: number;
  executor: "web" | "worker";
  distDir: string;
  session: "Auth.js session cookie (credentials sign-in), shared by all viewers";
  idealMs: number;
  alone: ViewersPhase;
  withViewers: ViewersPhase;
  wallRatio: number;
  targets: { pageDataP95Ms: number; wallRatio: number; pageDataP95Met: boolean; wallMet: boolean };
  cpus: number;
  appLog: string;
  failures: string[];
};

type Api = <T>(method: string, url: string, body?: unknown, contentType?: string) => Promise<T>;

function apiClient(app: BenchApp): Api {
  return async (method, url, body, contentType = "application/json") => {
    const res = await fetch(`${app.url}/api/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${app.apiKey}`, ...(body === undefined ? {} : { "content-type": contentType }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    if (!res.ok) throw new Error(`${method} /api/v1${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as never;
  };
}

async function makeSuite(api: Api, agentId: string, name: string, cases: number, prefix: string): Promise<string> {
  const suite = await api<{ id: string }>("POST", "/suites", { agent_id: agentId, name });
  const rows = Array.from({ length: cases }, (_, i) => ({
    name: `case ${i}`,
    status: "active",
    initial_message: `${prefix} ${i}`,
    max_turns: 1,
  }));
  await api("POST", `/suites/${suite.id}/test-cases/import`, rows);
  return suite.id;
}

/** Question → times asked, as the fake saw them, for the exactly-once check of one phase. */
async function asked(fake: BenchFake): Promise<Map<string, number>> {
  return new Map((await fake.stats()).lastUserMessages);
}

export async function benchViewers(opts: {
  root: string;
  distDir: string;
  databaseUrl: string;
  dbCpuMs: () => number | null;
  fake: BenchFake;
  viewers: number;
  cases: number;
  concurrency: number;
  latencyMs: number;
  executor: "web" | "worker";
  say: (line: string) => void;
}): Promise<ViewersBenchResult> {
  const { fake, cases, concurrency, say } = opts;
  const failures: string[] = [];
  const appLog = path.join(os.tmpdir(), `assay-bench-app-${process.pid}.log`);
  say(
    `starting the production build in ${opts.distDir}/ (executor in ${opts.executor === "web" ? "the web process" : "its own process"})…`,
  );
  const app = await startBenchApp({
    root: opts.root,
    distDir: opts.distDir,
    databaseUrl: opts.databaseUrl,
    executor: opts.executor,
    logFile: appLog,
  });
  const watcher = new pg.Client({ connectionString: opts.databaseUrl });
  await watcher.connect();
  try {
    const api = apiClient(app);
    const config = await api<{ id: string }>("POST", "/model-configs", {
      name: "Fake",
      base_url: fake.url,
      model: "fake-model",
      api_key: "sk-fake",
    });
    const agent = await api<{ id: string }>("POST", "/agents", {
      name: "Bench bot",
      kind: "chat",
      system_prompt: "Answer.",
      model_config_id: config.id,
    });
    const warmupSuite = await makeSuite(api, agent.id, "warm-up", WARMUP_CASES, "warm-up question");
    const suite = await makeSuite(api, agent.id, `viewers ${cases}x${concurrency}`, cases, "question");
    const cookie = await signInCookie(app.url, app.email, app.password);
    const workspaceId = (await watcher.query<{ id: string }>(`SELECT "id" FROM "Workspace" LIMIT 1`)).rows[0]!.id;

    const phase = async (label: string, suiteId: string, viewers: number): Promise<ViewersPhase> => {
      const loadBefore = loadAverage();
      const cpu = () => ({
        web: app.webPid ? procCpuMs(app.webPid) : null,
        worker: app.workerPid ? procCpuMs(app.workerPid) : null,
        postgres: opts.dbCpuMs(),
        fake: fake.cpuMs(),
        bench: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
      });
      const sampler = await startPgSampler(opts.databaseUrl);
      const cpuBefore = cpu();
      const t0 = performance.now();
      const run = await api<{ id: string; status: string }>("POST", `/suites/${suiteId}/runs`, { concurrency });
      const load = viewers > 0 ? startViewers({ url: app.url, cookie, workspaceId, runId: run.id, viewers }) : null;
      const deadline = Date.now() + Math.max(120_000, (cases / concurrency) * opts.latencyMs * 20);
      let status = run.status;
      while (!FINISHED.includes(status)) {
        if (Date.now() > deadline) {
          failures.push(`${label}: the run did not finish in time (status ${status})`);
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
        const res = await watcher.query<{ status: string }>(`SELECT "status"::text AS status FROM "Run" WHERE "id" = $1`, [run.id]);
        status = res.rows[0]?.status ?? "missing";
      }
      const wallMs = performance.now() - t0;
      const loadResult = load ? await load.stop() : null;
      const cpuAfter = cpu();
      const activeStatements = await sampler.stop();
      const diff = (a: number | null, b: number | null) => (a !== null && b !== null ? b - a : null);
      const row = (
        await watcher.query<{ db_wall: number | null; passed: number }>(
          `SELECT (extract(epoch FROM (r."completedAt" - r."createdAt")) * 1000)::float AS db_wall,
                  (SELECT count(*)::int FROM "CaseResult" c WHERE c."runId" = r."id" AND c."status" = 'passed') AS passed
           FROM "Run" r WHERE r."id" = $1`,
          [run.id],
        )
      ).rows[0];
      return {
        label,
        runId: run.id,
        wallMs,
        dbWallMs: row?.db_wall ?? null,
        status,
        passed: row?.passed ?? 0,
        loadBefore,
        loadAfter: loadAverage(),
        cpuMs: {
          web: diff(cpuBefore.web, cpuAfter.web),
          worker: diff(cpuBefore.worker, cpuAfter.worker),
          postgres: diff(cpuBefore.postgres, cpuAfter.postgres),
          fake: diff(cpuBefore.fake, cpuAfter.fake),
          bench: cpuAfter.bench - cpuBefore.bench,
        },
        load: loadResult,
        activeStatements,
      };
    };

    /** Every case of the phase asked exactly once (the fake's counts before and after it). */
    const checkPhase = (
      label: string,
      p: ViewersPhase,
      before: Map<string, number>,
      after: Map<string, number>,
      n: number,
      prefix: string,
    ) => {
      if (p.status !== "completed") failures.push(`${label}: run ended ${p.status}, expected completed`);
      if (p.passed !== n) failures.push(`${label}: ${p.passed}/${n} cases passed`);
      const wrong = Array.from({ length: n }, (_, i) => `${prefix} ${i}`).filter((q) => (after.get(q) ?? 0) - (before.get(q) ?? 0) !== 1);
      if (wrong.length) failures.push(`${label}: ${wrong.length} cases were not asked exactly once (e.g. "${wrong[0]}")`);
    };

    say(`warm-up: ${WARMUP_CASES} cases with ${opts.viewers} viewers…`);
    let before = await asked(fake);
    const warm = await phase("warm-up", warmupSuite, opts.viewers);
    let after = await asked(fake);
    checkPhase("warm-up", warm, before, after, WARMUP_CASES, "warm-up question");
    await warmRoutes({ url: app.url, cookie, workspaceId, runId: warm.runId });

    say(`alone: ${cases} cases at concurrency ${concurrency} (${opts.latencyMs} ms a call)…`);
    before = after;
    const alone = await phase("alone", suite, 0);
    after = await asked(fake);
    checkPhase("alone", alone, before, after, cases, "question");

    say(`with ${opts.viewers} viewers: the same ${cases} cases…`);
    before = after;
    const withViewers = await phase("with viewers", suite, opts.viewers);
    after = await asked(fake);
    checkPhase("with viewers", withViewers, before, after, cases, "question");

    const stats = await fake.stats();
    if (stats.maxConcurrent > concurrency)
      failures.push(`the fake saw ${stats.maxConcurrent} concurrent requests, above the bound ${concurrency}`);
    const load = withViewers.load!;
    const httpErrors = load.endpoints.flatMap((e) =>
      Object.entries(e.errorKinds)
        .filter(([k]) => /^\d+$|^rendered error$/.test(k))
        .map(([k, n]) => `${n}× ${k} on ${e.endpoint}`),
    );
    if (httpErrors.length) failures.push(`viewer requests answered with an error status: ${httpErrors.join(", ")}`);
    if (load.pageData.requests === 0) failures.push("the viewers made no page-data request");

    const wallRatio = withViewers.wallMs / alone.wallMs;
    return {
      viewers: opts.viewers,
      cases,
      concurrency,
      latencyMs: opts.latencyMs,
      executor: opts.executor,
      distDir: opts.distDir,
      session: "Auth.js session cookie (credentials sign-in), shared by all viewers",
      idealMs: Math.ceil(cases / concurrency) * opts.latencyMs,
      alone,
      withViewers,
      wallRatio,
      targets: {
        pageDataP95Ms: TARGET_PAGE_DATA_P95_MS,
        wallRatio: TARGET_WALL_RATIO,
        pageDataP95Met: load.endpoints
          .filter((e) => PAGE_DATA.includes(e.endpoint) && e.requests > 0)
          .every((e) => e.p95Ms < TARGET_PAGE_DATA_P95_MS),
        wallMet: wallRatio <= TARGET_WALL_RATIO,
      },
      cpus: os.cpus().length,
      appLog,
      failures,
    };
  } finally {
    await watcher.end().catch(() => undefined);
    await app.stop();
  }
}

const ms = (v: number | null) => (v === null || Number.isNaN(v) ? "n/a" : `${v.toFixed(0)} ms`);
const s = (v: number | null) => (v === null ? "n/a" : `${(v / 1000).toFixed(2)} s`);

export function formatViewersReport(r: ViewersBenchResult, meta: { database: string }): string {
  const load = r.withViewers.load!;
  const cpu = (p: ViewersPhase) =>
    `web ${s(p.cpuMs.web)}${r.executor === "worker" ? `, worker ${s(p.cpuMs.worker)}` : ""}, PostgreSQL ${s(p.cpuMs.postgres)}, fake ${s(p.cpuMs.fake)}, bench/viewers ${s(p.cpuMs.bench)}`;
  const width = Math.max(...load.endpoints.map((e) => e.endpoint.length));
  const lines = [
    `Assay viewers benchmark — ${r.viewers} dashboard users on the live run page while ${r.cases} cases × ${r.latencyMs} ms run at concurrency ${r.concurrency}`,
    `  app: next start (${r.distDir}/), executor in ${r.executor === "web" ? "the web process" : "its own process, as npm start runs it"} · viewers: ${r.session} · database: ${meta.database} · ${r.cpus} CPUs`,
    "",
    `  run alone          wall ${s(r.alone.wallMs)} (ideal ${s(r.idealMs)}, db ${s(r.alone.dbWallMs)}) · load avg ${r.alone.loadBefore} → ${r.alone.loadAfter}`,
    `                     CPU: ${cpu(r.alone)}`,
    `  run with viewers   wall ${s(r.withViewers.wallMs)} (db ${s(r.withViewers.dbWallMs)}) · load avg ${r.withViewers.loadBefore} → ${r.withViewers.loadAfter}`,
    `                     CPU: ${cpu(r.withViewers)}`,
    `  wall with / alone  ${r.wallRatio.toFixed(3)}  (target ≤ ${r.targets.wallRatio}: ${r.targets.wallMet ? "met" : "missed"})`,
    "",
    `  ${load.requests} requests in ${s(load.durationMs)} (${load.requestsPerSecond.toFixed(0)}/s), ${load.errors} errors`,
    `  ${"endpoint".padEnd(width)}  requests  errors     p50     p95     p99     max`,
    ...load.endpoints.map(
      (e) =>
        `  ${e.endpoint.padEnd(width)}  ${String(e.requests).padStart(8)}  ${String(e.errors).padStart(6)}  ${ms(e.p50Ms).padStart(6)}  ${ms(e.p95Ms).padStart(6)}  ${ms(e.p99Ms).padStart(6)}  ${ms(e.maxMs).padStart(6)}`,
    ),
    `  ${"page data (JSON)".padEnd(width)}  ${String(load.pageData.requests).padStart(8)}  ${String(load.pageData.errors).padStart(6)}  ${ms(load.pageData.p50Ms).padStart(6)}  ${ms(load.pageData.p95Ms).padStart(6)}  ${ms(load.pageData.p99Ms).padStart(6)}  ${ms(load.pageData.maxMs).padStart(6)}`,
    `  page data p95 < ${r.targets.pageDataP95Ms} ms on every JSON route: ${r.targets.pageDataP95Met ? "met" : "missed"}`,
    "",
    `  PostgreSQL's active statements with viewers (${r.withViewers.activeStatements.samples} samples; average backends running each):`,
    ...r.withViewers.activeStatements.top.map((a) => `  ${a.share.toFixed(2).padStart(6)}  ${a.statement}`),
    "",
    correctnessLine(
      r.failures,
      "correctness: every case of each run passed and was asked exactly once, concurrency within bound, no viewer request refused",
    ),
  ];
  return lines.join("\n");
}
