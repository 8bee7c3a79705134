// The trials mode of `npm run bench`: N single-turn cases × T trials (every trial its own case
// result) against the fake OpenAI server at a given concurrency, timed from startRun to the
// run's completion. The concurrency bound counts trial executions, so the ideal is
// ⌈N × T ÷ C⌉ waves of one agent call. Besides the time it proves, in SQL, that every trial was
// stored exactly once: one case result per (test case, trial), trials 0..T−1 for every case, none
// lost or duplicated, each in its trial-major position; and that the fake was asked each case's
// question exactly T times.
// Imports lib/: load it only after DATABASE_URL is set.
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import pg from "pg";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { endpointLimiter, setDefaultEndpointConcurrency, setEndpointConcurrency } from "@/lib/llm";
import { Executor } from "@/lib/runs/executor";
import { createCaseRunner } from "@/lib/runs/case-runner";
import { warmUpModelCalls } from "@/lib/llm/warm-up";
import { getRun, startRun } from "@/lib/runs/service";
import type { BenchFake } from "./fake";
import { makeBenchSuite, waitForRunEnd } from "./executor-bench";
import { correctnessLine, table } from "./report";

/** What the SQL said about the run's case results, per (test case, trial). */
export type TrialsStorage = {
  /** Case results of the run (target: cases × trials). */
  results: number;
  /** (test case, trial) pairs with more than one case result. */
  duplicated: number;
  /** (test case, trial) pairs, trial in 0..T−1, with no case result. */
  missing: number;
  /** Case results whose trial is outside 0..T−1 or that have no test case. */
  outOfRange: number;
  /** Case results whose position is not trial × cases + case index (trial-major). */
  misplaced: number;
  /** Case results not passed (the fake answers every case; a case has no checks). */
  notPassed: number;
  /**
   * Claim order: trial-(t+1) results that started before the last trial-t result started; 0 when
   * the executor claims in trial-major order. Reported, not a failure: claims racing in separate
   * transactions may stamp their start times a little out of order.
   */
  claimedAheadOfTrial: number;
};

export type TrialsBenchResult = {
  runId: string;
  suiteId: string;
  cases: number;
  trials: number;
  /** cases × trials: what the run executes and the concurrency bound counts. */
  executions: number;
  concurrency: number;
  latencyMs: number;
  endpointCap: number;
  fakeSeparate: boolean;
  wallMs: number;
  /** ⌈executions ÷ concurrency⌉ × latency. */
  idealMs: number;
  ratio: number;
  runStatus: string;
  /** The run's own figures (summary and counters). */
  totalCases: number;
  passedCases: number;
  passAt1: number | null;
  flakyCases: number | null;
  storage: TrialsStorage;
  /** Averages per trial execution: claim → done, and the agent call alone; null without results. */
  avgDurationMs: number | null;
  avgAgentLatencyMs: number | null;
  /** Sum of execution durations ÷ wall: how many executions were in flight on average (at most the concurrency). */
  effectiveConcurrency: number;
  /** Chat requests of this run's questions, and how many questions were not asked exactly `trials` times. */
  chatRequests: number;
  questionsNotAskedTrialsTimes: number;
  fakeMaxConcurrent: number;
  /**
   * CPU per trial execution (ms) of the bench process (executor), the fake server and the
   * database, during the run (null when it cannot be read). On a loaded machine the wall time
   * says little; CPU per execution against the budget (ideal × CPUs ÷ executions) says whether the
   * target is reachable on an idle one.
   */
  cpuPerExecutionMs: { bench: number; fake: number | null; database: number | null };
  eventLoopDelayP99Ms: number;
  failures: string[];
};

/** The run's case results checked per (test case, trial), in one statement. */
export async function trialsStorage(runId: string, suiteId: string, cases: number, trials: number): Promise<TrialsStorage> {
  const [row] = await db.$queryRaw<
    {
      results: number;
      duplicated: number;
      missing: number;
      out_of_range: number;
      misplaced: number;
      not_passed: number;
      claimed_ahead: number;
    }[]
  >`
    WITH results AS (
      SELECT c."testCaseId", c."repetition" AS trial, c."position", c."status"::text AS status, c."startedAt"
      FROM "CaseResult" c WHERE c."runId" = ${runId}::uuid
    ),
    suite_cases AS (
      SELECT t."id", (row_number() OVER (ORDER BY t."sortOrder", t."id") - 1)::int AS idx
      FROM "TestCase" t WHERE t."suiteId" = ${suiteId}::uuid
    ),
    expected AS (
      SELECT s."id", s.idx, g.trial FROM suite_cases s CROSS JOIN generate_series(0, ${trials}::int - 1) AS g(trial)
    ),
    per_pair AS (
      SELECT "testCaseId", trial, count(*)::int AS n FROM results GROUP BY 1, 2
    ),
    trial_starts AS (
      SELECT trial, max("startedAt") AS last_start FROM results GROUP BY trial
    )
    SELECT
      (SELECT count(*)::int FROM results) AS results,
      (SELECT count(*)::int FROM per_pair WHERE n > 1) AS duplicated,
      (SELECT count(*)::int FROM expected e
         WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r."testCaseId" = e."id" AND r.trial = e.trial)) AS missing,
      (SELECT count(*)::int FROM results r
         WHERE r."testCaseId" IS NULL OR r.trial < 0 OR r.trial >= ${trials}::int) AS out_of_range,
      (SELECT count(*)::int FROM results r JOIN suite_cases s ON s."id" = r."testCaseId"
         WHERE r."position" <> r.trial * ${cases}::int + s.idx) AS misplaced,
      (SELECT count(*)::int FROM results WHERE status <> 'passed') AS not_passed,
      (SELECT count(*)::int FROM results r JOIN trial_starts p ON p.trial = r.trial - 1
         WHERE r."startedAt" < p.last_start) AS claimed_ahead`;
  return {
    results: row!.results,
    duplicated: row!.duplicated,
    missing: row!.missing,
    outOfRange: row!.out_of_range,
    misplaced: row!.misplaced,
    notPassed: row!.not_passed,
    claimedAheadOfTrial: row!.claimed_ahead,
  };
}

export async function benchTrials(opts: {
  ctx: WorkspaceContext;
  fake: BenchFake;
  cases: number;
  trials: number;
  concurrency: number;
  latencyMs: number;
  /** null: the product's cap (ASSAY_MODEL_CONCURRENCY, set as lib/runs/worker.ts does). */
  endpointCap: number | null;
  /** CPU (ms) of the database server's processes so far, when it can be read. */
  dbCpuMs?: () => number | null;
  pollMs?: number;
}): Promise<TrialsBenchResult> {
  const { ctx, fake, cases, trials, concurrency, latencyMs } = opts;
  const failures: string[] = [];
  const executions = cases * trials;
  // Questions of their own, so the fake's counts of this run are told apart from other modes'.
  const prefix = "trials question";
  const { suiteId, modelConfigId } = await makeBenchSuite(ctx, {
    baseUrl: fake.url,
    cases,
    name: `trials-${cases}x${trials}x${concurrency}`,
    questionPrefix: prefix,
  });
  setDefaultEndpointConcurrency(env.ASSAY_MODEL_CONCURRENCY); // as startExecutor() does
  if (opts.endpointCap !== null) setEndpointConcurrency(modelConfigId, opts.endpointCap);
  const endpointCap = endpointLimiter(modelConfigId).limit;

  // As lib/runs/worker.ts builds it: the model-call path is warmed before the first claim.
  const executor = new Executor({
    runner: createCaseRunner({ preconnect: true }),
    maxSlots: Math.max(64, concurrency),
    warmUp: () => warmUpModelCalls(),
  });
  executor.start();
  await executor.whenReady();
  await new Promise((r) => setTimeout(r, 200)); // let the start-up recovery pass settle

  const before = await fake.stats();
  const fakeCpuBefore = fake.cpuMs();
  const dbCpuBefore = opts.dbCpuMs?.() ?? null;
  const cpuBefore = process.cpuUsage();
  const elDelay = monitorEventLoopDelay({ resolution: 10 });
  elDelay.enable();
  // Completion is watched over a plain `pg` connection, as the executor mode does (no Prisma pool load).
  const watcher = new pg.Client({ connectionString: env.DATABASE_URL });
  await watcher.connect();
  const t0 = performance.now();
  const started = await startRun(ctx, suiteId, { concurrency, trials }, "api");
  const deadline = Date.now() + Math.max(60_000, (executions / concurrency) * latencyMs * 10);
  await waitForRunEnd(watcher, started, deadline, failures, opts.pollMs);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpuBefore);
  const fakeCpuAfter = fake.cpuMs();
  const dbCpuAfter = opts.dbCpuMs?.() ?? null;
  await watcher.end();
  elDelay.disable();
  await executor.stop(5_000);

  const run = await getRun(ctx, started.id);
  const storage = await trialsStorage(started.id, suiteId, cases, trials);
  const [timing] = await db.$queryRaw<{ avg_duration: number | null; avg_latency: number | null; sum_duration: number | null }[]>`
    SELECT avg("durationMs")::float AS avg_duration, avg("latencyMs")::float AS avg_latency, sum("durationMs")::float AS sum_duration
    FROM "CaseResult" WHERE "runId" = ${started.id}::uuid`;
  const after = await fake.stats();
  const asked = (q: string) => (after.lastUserMessages.get(q) ?? 0) - (before.lastUserMessages.get(q) ?? 0);
  const questions = Array.from({ length: cases }, (_, i) => `${prefix} ${i}`);
  const chatRequests = questions.reduce((n, q) => n + asked(q), 0);
  const notAskedTrialsTimes = questions.filter((q) => asked(q) !== trials);

  if (run.status !== "completed") failures.push(`run ended ${run.status}, expected completed`);
  if (run.trials !== trials) failures.push(`run.trials = ${run.trials}, expected ${trials}`);
  if (run.total_cases !== executions) failures.push(`run.total_cases = ${run.total_cases}, expected ${executions}`);
  if (run.passed_cases !== executions) failures.push(`run.passed_cases = ${run.passed_cases}, expected ${executions}`);
  if (storage.results !== executions) failures.push(`${storage.results} case results stored, expected ${executions}`);
  if (storage.duplicated) failures.push(`${storage.duplicated} (test case, trial) pairs have more than one case result`);
  if (storage.missing) failures.push(`${storage.missing} (test case, trial) pairs have no case result`);
  if (storage.outOfRange) failures.push(`${storage.outOfRange} case results have no test case or a trial outside 0..${trials - 1}`);
  if (storage.misplaced) failures.push(`${storage.misplaced} case results are not at position trial × ${cases} + case index`);
  if (storage.notPassed) failures.push(`${storage.notPassed} case results did not pass`);
  if (chatRequests !== executions) failures.push(`the fake saw ${chatRequests} chat requests of this run, expected ${executions}`);
  if (notAskedTrialsTimes.length)
    failures.push(
      `${notAskedTrialsTimes.length} questions were not asked exactly ${trials}× (e.g. "${notAskedTrialsTimes[0]}": ${asked(notAskedTrialsTimes[0]!)}×)`,
    );
  if (after.maxConcurrent > concurrency)
    failures.push(`the fake saw ${after.maxConcurrent} concurrent requests, above the bound ${concurrency}`);

  const idealMs = Math.ceil(executions / concurrency) * latencyMs;
  return {
    runId: started.id,
    suiteId,
    cases,
    trials,
    executions,
    concurrency,
    latencyMs,
    endpointCap,
    fakeSeparate: fake.separate,
    wallMs,
    idealMs,
    ratio: idealMs > 0 ? wallMs / idealMs : NaN,
    runStatus: run.status,
    totalCases: run.total_cases,
    passedCases: run.passed_cases,
    passAt1: run.summary?.pass_at_1 ?? null,
    flakyCases: run.summary?.flaky_cases ?? null,
    storage,
    avgDurationMs: timing?.avg_duration ?? null,
    avgAgentLatencyMs: timing?.avg_latency ?? null,
    effectiveConcurrency: (timing?.sum_duration ?? 0) / wallMs,
    chatRequests,
    questionsNotAskedTrialsTimes: notAskedTrialsTimes.length,
    fakeMaxConcurrent: after.maxConcurrent,
    cpuPerExecutionMs: {
      bench: (cpu.user + cpu.system) / 1000 / executions,
      fake: fakeCpuBefore !== null && fakeCpuAfter !== null ? (fakeCpuAfter - fakeCpuBefore) / executions : null,
      database: dbCpuBefore !== null && dbCpuAfter !== null ? (dbCpuAfter - dbCpuBefore) / executions : null,
    },
    eventLoopDelayP99Ms: elDelay.percentile(99) / 1e6,
    failures,
  };
}

/** The trials mode's target: wall time within 1.2× the ideal (as the executor mode's up to 1,000 cases). */
export const TRIALS_TARGET_RATIO = 1.2;

const msOrNa = (v: number | null) => (v === null ? "n/a" : `${v.toFixed(1)} ms`);

function cpuText(r: TrialsBenchResult): string {
  const c = r.cpuPerExecutionMs;
  const part = (v: number | null, what: string) => (v === null ? `n/a ${what}` : `${v.toFixed(2)} ms ${what}`);
  const total = c.bench + (c.fake ?? 0) + (c.database ?? 0);
  return `${part(c.bench, "bench")} + ${part(c.fake, "fake")} + ${part(c.database, "PostgreSQL")} = ${total.toFixed(2)} ms`;
}

export function formatTrialsReport(r: TrialsBenchResult, meta: { database: string; loadBefore: string; loadAfter: string }): string {
  const s = r.storage;
  const verdict = r.ratio <= TRIALS_TARGET_RATIO ? "target met" : "target missed";
  const rows: [string, string][] = [
    ["wall time", `${(r.wallMs / 1000).toFixed(2)} s`],
    [
      "ideal",
      `${(r.idealMs / 1000).toFixed(2)} s (${r.executions} trial executions × ${r.latencyMs} ms ÷ ${r.concurrency}, in ${Math.ceil(r.executions / r.concurrency)} waves)`,
    ],
    ["ratio to ideal", `${r.ratio.toFixed(3)}  (target ≤ ${TRIALS_TARGET_RATIO}: ${verdict})`],
    ["effective concurrency", `${r.effectiveConcurrency.toFixed(1)} of ${r.concurrency}`],
    ["avg execution / agent call", `${msOrNa(r.avgDurationMs)} / ${msOrNa(r.avgAgentLatencyMs)}`],
    [
      "run",
      `${r.runStatus}, total_cases ${r.totalCases}, passed ${r.passedCases}, pass@1 ${r.passAt1 ?? "n/a"}, flaky ${r.flakyCases ?? "n/a"}`,
    ],
    ["case results stored", `${s.results} (expected ${r.executions})`],
    [
      "per (test case, trial)",
      `${s.duplicated} duplicated, ${s.missing} missing, ${s.outOfRange} out of range, ${s.misplaced} not in trial-major position`,
    ],
    [
      "claimed ahead of the previous trial",
      `${s.claimedAheadOfTrial} (trial t+1 started before trial t's last start; 0 when claims are trial-major)`,
    ],
    [
      "fake: chat requests / max concurrent",
      `${r.chatRequests} / ${r.fakeMaxConcurrent}; questions not asked exactly ${r.trials}×: ${r.questionsNotAskedTrialsTimes}`,
    ],
    [
      "CPU per trial execution",
      `${cpuText(r)} (budget at the ideal on ${os.cpus().length} idle CPUs: ${((r.idealMs * os.cpus().length) / r.executions).toFixed(1)} ms)`,
    ],
    ["event loop delay p99", `${r.eventLoopDelayP99Ms.toFixed(1)} ms`],
  ];
  return [
    `Assay trials benchmark — ${r.cases} single-turn cases × ${r.trials} trials × ${r.latencyMs} ms at concurrency ${r.concurrency}`,
    `  fake OpenAI server: ${r.fakeSeparate ? "own process" : "in process"} · per-model-config request cap ${r.endpointCap} · database: ${meta.database} · load avg before ${meta.loadBefore}, after ${meta.loadAfter}`,
    "",
    table(rows),
    "",
    correctnessLine(
      r.failures,
      "correctness: every trial stored exactly once, each question asked exactly once per trial, concurrency within bound",
    ),
  ].join("\n");
}
