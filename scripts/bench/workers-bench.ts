// `npm run bench -- --workers 1,2,4`: for each count N, starts N real
// `scripts/worker.ts` processes (what `npm run worker` runs) on the bench database, runs the
// same work through them — `runs` runs sharing the cases and the total concurrency, since one
// run may use at most MAX_RUN_CONCURRENCY (64) slots — while the bench process only creates the
// runs and watches, and reports wall time, throughput and the speed-up over the first count,
// with each phase's load average and CPU.
// Imports lib/: load it only after DATABASE_URL is set.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { env } from "@/lib/env";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { startRun } from "@/lib/runs/service";
import { MAX_RUN_CONCURRENCY } from "@/lib/runs/schemas";
import type { BenchFake } from "./fake";
import { procCpuMs, procPeakRss } from "./fake";
import { makeBenchSuite } from "./executor-bench";
import { correctnessLine, loadAverage } from "./report";
import { RunWatcher, runFailures, type RunTimings } from "./run-watch";

export type WorkersPhase = {
  workers: number;
  wallMs: number;
  timings: RunTimings;
  /** Cases per second, run createdAt → completed. */
  throughput: number;
  /** Throughput ÷ the first phase's throughput. */
  speedup: number | null;
  /** Wall under perfect scaling: ⌈cases / min(concurrency, N × slots)⌉ × latency. */
  idealMs: number;
  maxRunning: number;
  /** CPU of all worker processes, the database and the fake during the phase, ms per case. */
  workerCpuMsPerCase: number | null;
  dbCpuMsPerCase: number | null;
  fakeCpuMsPerCase: number | null;
  workerPeakRssBytes: number | null;
  loadBefore: string;
  loadAfter: string;
  failures: string[];
};

export type WorkersBenchResult = {
  cases: number;
  /** Total concurrency: `runs` runs of `cases / runs` cases at `concurrency / runs` each. */
  concurrency: number;
  runs: number;
  runConcurrency: number;
  latencyMs: number;
  slotsPerWorker: number;
  phases: WorkersPhase[];
  failures: string[];
};

type Worker = { child: ChildProcess; exited: Promise<void> };

/** Starts one `scripts/worker.ts` process and waits for its "worker ready" log line. */
export async function startWorker(root: string, childEnv: NodeJS.ProcessEnv): Promise<Worker> {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", path.join(root, "scripts/worker.ts")], {
    cwd: root,
    env: childEnv,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const killOnExit = () => {
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  process.once("exit", killOnExit);
  void exited.then(() => process.off("exit", killOnExit));
  await new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error("a worker did not report ready within 60 s")), 60_000);
    lines.on("line", (line) => {
      if (line.includes('"worker ready"')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`a worker exited with code ${child.exitCode} before it was ready`));
    });
  });
  return { child, exited };
}

export async function stopWorkers(workers: Worker[]) {
  for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGTERM");
  await Promise.race([Promise.all(workers.map((w) => w.exited)), new Promise((r) => setTimeout(r, 15_000))]);
  for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
}

export async function benchWorkers(opts: {
  ctx: WorkspaceContext;
  fake: BenchFake;
  root: string;
  counts: number[];
  cases: number;
  concurrency: number;
  runs: number;
  latencyMs: number;
  slotsPerWorker: number;
  dbCpuMs: () => number | null;
  say: (line: string) => void;
}): Promise<WorkersBenchResult> {
  const { ctx, fake, cases, concurrency, latencyMs, slotsPerWorker, say } = opts;
  const runConcurrency = Math.ceil(concurrency / opts.runs);
  if (runConcurrency > MAX_RUN_CONCURRENCY)
    throw new Error(
      `--concurrency ${concurrency} over ${opts.runs} runs is ${runConcurrency} a run, above ${MAX_RUN_CONCURRENCY}: use more --runs`,
    );
  const perRun = Array.from({ length: opts.runs }, (_, k) => Math.floor(cases / opts.runs) + (k < cases % opts.runs ? 1 : 0)).filter(
    (n) => n > 0,
  );
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: env.DATABASE_URL,
    NODE_ENV: "production",
    LOG_LEVEL: "info",
    ASSAY_WORKER_SLOTS: String(slotsPerWorker),
    // Each process may call the one model configuration as often as it has slots.
    ASSAY_MODEL_CONCURRENCY: String(slotsPerWorker),
  };
  const phases: WorkersPhase[] = [];
  const watcher = await RunWatcher.open(env.DATABASE_URL!);
  try {
    for (const n of opts.counts) {
      const suites = [];
      for (const [k, runCases] of perRun.entries()) {
        const prefix = `w${n} r${k} question`;
        suites.push({
          prefix,
          runCases,
          ...(await makeBenchSuite(ctx, { baseUrl: fake.url, cases: runCases, name: `workers-${n}-${k}`, questionPrefix: prefix })),
        });
      }
      say(`starting ${n} worker process${n === 1 ? "" : "es"} (${slotsPerWorker} slots each)…`);
      const workers = await Promise.all(Array.from({ length: n }, () => startWorker(opts.root, childEnv)));
      try {
        await new Promise((r) => setTimeout(r, 500)); // their start-up recovery pass and warm-up
        const pids = workers.map((w) => w.child.pid!);
        const cpu = () => {
          let sum = 0;
          for (const pid of pids) {
            const ms = procCpuMs(pid);
            if (ms === null) return null;
            sum += ms;
          }
          return sum;
        };
        const loadBefore = loadAverage();
        const [workerCpu0, dbCpu0, fakeCpu0] = [cpu(), opts.dbCpuMs(), fake.cpuMs()];
        say(`  ${perRun.length} runs, ${cases} cases × ${latencyMs} ms, concurrency ${runConcurrency} each…`);
        const t0 = performance.now();
        const runs = [];
        for (const suite of suites)
          runs.push({ ...suite, run: await startRun(ctx, suite.suiteId, { concurrency: runConcurrency }, "api") });
        const runIds = runs.map((r) => r.run.id);
        const watch = await watcher.waitAll(runIds, {
          pollMs: 50,
          timeoutMs: Math.max(120_000, (cases / Math.min(concurrency, n * slotsPerWorker)) * latencyMs * 5),
        });
        const wallMs = Math.max(...runIds.map((id) => watch.finishedAt.get(id) ?? performance.now())) - t0;
        const [workerCpu1, dbCpu1, fakeCpu1] = [cpu(), opts.dbCpuMs(), fake.cpuMs()];
        const rss = pids.map((pid) => procPeakRss(pid));
        const loadAfter = loadAverage();
        const timings = await watcher.timings(runIds);
        const maxRunning = watch.maxRunningByWorkspace.get(ctx.workspaceId) ?? 0;
        const fakeStats = await fake.stats();
        const failures: string[] = [];
        for (const r of runs) {
          failures.push(
            ...runFailures(
              `${n} workers, ${r.prefix}`,
              {
                status: watch.status.get(r.run.id),
                statuses: await watcher.statuses(r.run.id),
                cases: r.runCases,
                prefix: r.prefix,
                maxRunning: watch.maxRunningByRun.get(r.run.id) ?? 0,
                concurrency: runConcurrency,
              },
              fakeStats,
            ),
          );
        }
        if (maxRunning > n * slotsPerWorker)
          failures.push(`${n} workers: ${maxRunning} cases running at once, above ${n} × ${slotsPerWorker} slots`);
        const perCase = (a: number | null, b: number | null) => (a === null || b === null ? null : (b - a) / cases);
        const seconds = (timings.createdToCompletedMs ?? wallMs) / 1000;
        const throughput = cases / seconds;
        phases.push({
          workers: n,
          wallMs,
          timings,
          throughput,
          speedup: phases.length ? throughput / phases[0]!.throughput : 1,
          idealMs: Math.ceil(cases / Math.min(runConcurrency * perRun.length, n * slotsPerWorker)) * latencyMs,
          maxRunning,
          workerCpuMsPerCase: perCase(workerCpu0, workerCpu1),
          dbCpuMsPerCase: perCase(dbCpu0, dbCpu1),
          fakeCpuMsPerCase: perCase(fakeCpu0, fakeCpu1),
          workerPeakRssBytes: rss.every((r) => r !== null) ? Math.max(...(rss as number[])) : null,
          loadBefore,
          loadAfter,
          failures,
        });
      } finally {
        await stopWorkers(workers);
      }
    }
  } finally {
    await watcher.close();
  }
  return {
    cases,
    concurrency: runConcurrency * perRun.length,
    runs: perRun.length,
    runConcurrency,
    latencyMs,
    slotsPerWorker,
    phases,
    failures: phases.flatMap((p) => p.failures),
  };
}

export function formatWorkersReport(r: WorkersBenchResult, meta: { database: string }): string {
  const header = [
    "workers",
    "wall",
    "ideal",
    "ratio",
    "cases/s",
    "speed-up",
    "max running",
    "CPU ms/case (workers/db/fake)",
    "load avg before → after",
  ];
  const rows = r.phases.map((p) => [
    String(p.workers),
    `${((p.timings.createdToCompletedMs ?? p.wallMs) / 1000).toFixed(2)} s`,
    `${(p.idealMs / 1000).toFixed(1)} s`,
    ((p.timings.createdToCompletedMs ?? p.wallMs) / p.idealMs).toFixed(2),
    p.throughput.toFixed(1),
    p.speedup === null ? "n/a" : `${p.speedup.toFixed(2)}×`,
    String(p.maxRunning),
    [p.workerCpuMsPerCase, p.dbCpuMsPerCase, p.fakeCpuMsPerCase].map((v) => (v === null ? "n/a" : v.toFixed(2))).join(" / "),
    `${p.loadBefore} → ${p.loadAfter}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => c.padEnd(widths[i]!)).join("  ")}`;
  return [
    `Assay scale-out benchmark — ${r.cases} single-turn cases × ${r.latencyMs} ms in ${r.runs} runs at concurrency ${r.runConcurrency} each (${r.concurrency} in all), through N \`scripts/worker.ts\` processes with ${r.slotsPerWorker} slots each`,
    `  wall: the run's createdAt → completedAt (a run queued by this process wakes the workers through LISTEN/NOTIFY; their 500 ms poll is the fallback) · database: ${meta.database}`,
    "",
    line(header),
    ...rows.map(line),
    "",
    correctnessLine(
      r.failures,
      "correctness: every case passed and was asked exactly once; the run's concurrency and the workers' slots held",
    ),
  ].join("\n");
}
