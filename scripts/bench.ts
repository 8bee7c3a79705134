// `npm run bench`: the executor benchmark. Runs N single-turn cases against the fake
// OpenAI server (200 ms a call) at concurrency C on a throwaway PostgreSQL, prints wall time,
// ratio to ideal (target ≤ 1.2 up to 1,000 cases, 1.25 beyond), peak RSS, and the suite page's query times with a history of
// runs. Exits non-zero only when results are wrong (not when the target is missed).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, USAGE, type BenchArgs } from "./bench/args";
import { openBenchDatabase, type BenchDatabase } from "./bench/database";
import { startBenchFake, type BenchFake } from "./bench/fake";
import { benchMeta, databaseLabel, formatReport, loadAverage, targetRatio, throughputGoal, throughputGoalMet } from "./bench/report";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

let args: BenchArgs;
try {
  args = parseArgs(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (args.viewers > 0) {
  // Its own mode: the built app in its own process(es); nothing of lib/ is loaded here.
  const { viewersMain } = await import("./bench/viewers-main");
  process.exit(await viewersMain(root, args));
}
if (args.otlp) {
  // Its own mode too: OTLP export requests over HTTP to the built app.
  const { otlpMain } = await import("./bench/otlp-main");
  process.exit(await otlpMain(root, args));
}
/** The mode's name in --json output. */
function benchMode(a: BenchArgs): string {
  if (a.rateLimit) return "rate-limit";
  return a.ab ? "ab" : a.fairness ? "fairness" : a.workers.length > 0 ? "workers" : a.trials !== null ? "trials" : "executor";
}

const say = (line: string) => {
  if (!args.json) process.stderr.write(`${line}\n`);
};

let database: BenchDatabase | undefined;
let fake: BenchFake | undefined;
let disconnect: (() => Promise<void>) | undefined;
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await disconnect?.().catch(() => undefined);
    await fake?.close().catch(() => undefined);
    await database?.dispose().catch(() => undefined);
  })();
  return cleaning;
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void cleanup().finally(() => process.exit(130)));
}

let exitCode = 0;
try {
  const serverUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;
  say(serverUrl ? "creating a throwaway database on the configured PostgreSQL…" : "starting an embedded PostgreSQL…");
  database = await openBenchDatabase(root, serverUrl);
  // Four waves of unmeasured requests at the run's concurrency: a model API is never cold (./bench/fake.ts).
  const warmUpConcurrency = Math.min(args.concurrency, 50);
  fake = await startBenchFake({
    latencyMs: args.latencyMs,
    separate: args.separateFake,
    root,
    warmUp: { requests: warmUpConcurrency * 4, concurrency: warmUpConcurrency },
  });

  // lib/env.ts parses process.env once, on first import: set everything before importing lib/.
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET = "assay-bench-secret-assay-bench-secret-0123";
  (process.env as Record<string, string>).NODE_ENV = "production";
  process.env.LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? "warn";
  const { db, endPools } = await import("@/lib/db");
  // The bench's own watcher hears a run's end first (./bench/run-end.ts), then what follows a
  // finished run (comparisons, matrices, alerts, webhooks): the executor needs it.
  (await import("./bench/run-end")).listenForRunEnds();
  await import("@/lib/run-finished-subscribers");
  disconnect = async () => {
    await db.$disconnect();
    await endPools();
  };
  const { benchExecutor, makeBenchWorkspace } = await import("./bench/executor-bench");
  if (args.rateLimit) {
    const { benchRateLimit, formatRateLimitReport } = await import("./bench/rate-limit-bench");
    const rateLimit = await benchRateLimit({
      ctx: await makeBenchWorkspace(),
      fake,
      root,
      rpm: args.rateLimit.rpm,
      tpm: args.rateLimit.tpm,
      declared: !args.learned,
      workers: args.workers[0] ?? 2,
      concurrency: args.concurrency,
      latencyMs: args.latencyMs,
      seconds: args.seconds,
      say,
    });
    const meta = { database: databaseLabel(database) };
    const beside = args.promptfoo ? await import("./bench/promptfoo-rate-limit") : null;
    let promptfoo = null;
    if (beside && args.promptfoo) {
      say("the same workload through promptfoo…");
      promptfoo = await beside.benchPromptfooRateLimit({
        bin: args.promptfoo,
        fake,
        rpm: args.rateLimit.rpm,
        tpm: args.rateLimit.tpm,
        concurrency: args.concurrency,
        seconds: args.seconds,
        say,
      });
    }
    process.stdout.write(
      args.json
        ? `${JSON.stringify({ mode: "rate-limit", ...meta, rateLimit, promptfoo, failures: rateLimit.failures })}\n`
        : `${formatRateLimitReport(rateLimit, meta)}\n${beside && promptfoo ? `\n${beside.formatPromptfooRateLimit(promptfoo)}\n` : ""}`,
    );
    if (rateLimit.failures.length) exitCode = 1;
  } else if (args.ab) {
    const { benchAb, formatAbReport } = await import("./bench/ab-bench");
    const ctx = await makeBenchWorkspace();
    const loadBefore = loadAverage();
    say(
      `comparing ${args.cases} cases: baseline ${args.latencyMs} ms vs variant ${args.variantLatencyMs} ms, ${args.ordering}, concurrency ${args.concurrency}…`,
    );
    const ab = await benchAb({
      ctx,
      fake,
      cases: args.cases,
      concurrency: args.concurrency,
      baselineLatencyMs: args.latencyMs,
      variantLatencyMs: args.variantLatencyMs,
      ordering: args.ordering,
      warmupCases: args.warmupCases,
    });
    const meta = benchMeta(database, loadBefore);
    process.stdout.write(
      args.json ? `${JSON.stringify({ mode: "ab", ...meta, ab, failures: ab.failures })}\n` : `${formatAbReport(ab, meta)}\n`,
    );
    if (ab.failures.length) exitCode = 1;
  } else if (args.fairness) {
    const { benchFairness, formatFairnessReport } = await import("./bench/fairness-bench");
    const loadBefore = loadAverage();
    const fairness = await benchFairness({
      fake,
      cases: args.cases,
      concurrency: args.concurrency,
      latencyMs: args.latencyMs,
      bigCases: args.bigCases,
      bigConcurrency: args.bigConcurrency,
      slowLatencyMs: args.slowLatencyMs,
      slots: args.slots,
      workspaceCap: args.workspaceCap,
      say,
    });
    const meta = benchMeta(database, loadBefore);
    process.stdout.write(
      args.json
        ? `${JSON.stringify({ mode: "fairness", ...meta, fairness, failures: fairness.failures })}\n`
        : `${formatFairnessReport(fairness, meta)}\n`,
    );
    if (fairness.failures.length) exitCode = 1;
  } else if (args.trials !== null) {
    const { benchTrials, formatTrialsReport } = await import("./bench/trials-bench");
    const ctx = await makeBenchWorkspace();
    const loadBefore = loadAverage();
    say(`running ${args.cases} cases × ${args.trials} trials at concurrency ${args.concurrency} (${args.latencyMs} ms a call)…`);
    const trials = await benchTrials({
      ctx,
      fake,
      cases: args.cases,
      trials: args.trials,
      concurrency: args.concurrency,
      latencyMs: args.latencyMs,
      endpointCap: args.endpointCap,
      dbCpuMs: database.cpuMs,
    });
    const meta = benchMeta(database, loadBefore);
    process.stdout.write(
      args.json
        ? `${JSON.stringify({ mode: "trials", ...meta, trials, failures: trials.failures })}\n`
        : `${formatTrialsReport(trials, meta)}\n`,
    );
    if (trials.failures.length) exitCode = 1;
  } else if (args.workers.length > 0) {
    const { benchWorkers, formatWorkersReport } = await import("./bench/workers-bench");
    const workers = await benchWorkers({
      ctx: await makeBenchWorkspace(),
      fake,
      root,
      counts: args.workers,
      cases: args.cases,
      concurrency: args.concurrency,
      runs: args.runs,
      latencyMs: args.latencyMs,
      slotsPerWorker: args.workerSlots,
      dbCpuMs: database.cpuMs,
      say,
    });
    const meta = { database: databaseLabel(database) };
    process.stdout.write(
      args.json
        ? `${JSON.stringify({ mode: "workers", ...meta, workers, failures: workers.failures })}\n`
        : `${formatWorkersReport(workers, meta)}\n`,
    );
    if (workers.failures.length) exitCode = 1;
  } else {
    const { benchHistory } = await import("./bench/history-bench");

    const ctx = await makeBenchWorkspace();
    const loadBefore = loadAverage();
    say(`running ${args.cases} cases at concurrency ${args.concurrency} (${args.latencyMs} ms a call)…`);
    const executor = await benchExecutor({
      ctx,
      fake,
      cases: args.cases,
      concurrency: args.concurrency,
      latencyMs: args.latencyMs,
      endpointCap: args.endpointCap,
      runner: args.runner,
      timelineFile: args.timelineFile,
      profileFile: args.profileFile,
      memoryBaselineCases: args.memoryBaselineCases,
      coldStart: args.coldStart,
      dbCpuMs: database.cpuMs,
    });
    const loadAfter = loadAverage();
    let history = null;
    if (args.history > 0) {
      say(`inserting ${args.history} runs of history and timing the suite page's queries…`);
      history = await benchHistory({ ctx, baseUrl: fake.url, runs: args.history, casesPerRun: args.historyCases, explain: args.explain });
    }
    const meta = { database: databaseLabel(database), loadBefore, loadAfter };
    const failures = [...executor.failures, ...(history?.failures ?? [])];
    if (args.json) {
      process.stdout.write(
        `${JSON.stringify({ mode: "executor", ...meta, target_ratio: targetRatio(executor.cases), target_met: executor.ratio <= targetRatio(executor.cases), throughput_goal: throughputGoal(executor), throughput_goal_met: throughputGoalMet(executor), executor, history, failures })}\n`,
      );
    } else {
      process.stdout.write(`${formatReport(executor, history, meta)}\n`);
    }
    if (failures.length) exitCode = 1;
  }
} catch (err) {
  const message = `bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
  process.stderr.write(`${message}\n`);
  // --json always prints one object, so that CI archives something even when the bench broke.
  if (args.json) process.stdout.write(`${JSON.stringify({ mode: benchMode(args), failures: [message] })}\n`);
  exitCode = 1;
} finally {
  await cleanup();
}
process.exit(exitCode);
