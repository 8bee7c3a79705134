// The executor half of `npm run bench`: N single-turn cases (one agent call each) against the
// fake OpenAI server at a given concurrency, timed from startRun to the run's completion.
// Imports lib/: load it only after DATABASE_URL is set.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { monitorEventLoopDelay } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";
import pg from "pg";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { endpointLimiter, setDefaultEndpointConcurrency, setEndpointConcurrency } from "@/lib/llm";
import { Executor, type CaseOutcome, type CaseRunner } from "@/lib/runs/executor";
import { createCaseRunner } from "@/lib/runs/case-runner";
import { warmUpModelCalls } from "@/lib/llm/warm-up";
import { getRun, startRun } from "@/lib/runs/service";
import { hostCpuShares, hostCpuSnapshot } from "./host-cpu";
import type { BenchFake, FakeStats } from "./fake";
import { installQueryCounter, uncounted } from "./query-counter";
import { listenForRunEnds, runEnd } from "./run-end";

const FINISHED = ["completed", "failed", "cancelled"];

/**
 * Reads the run's status over `watcher` (a plain pg connection, not the pool under test, its
 * statements left out of the counts) as soon as this process publishes the run's end
 * (./run-end.ts), and every `pollMs` in case it ends elsewhere, until the run has finished; past
 * `deadline` it records a failure and stops waiting.
 */
export async function waitForRunEnd(
  watcher: pg.Client,
  run: { id: string; status: string },
  deadline: number,
  failures: string[],
  pollMs = 250,
): Promise<void> {
  listenForRunEnds(); // scripts/bench.ts did already, ahead of the product's subscribers; tests did not
  const end = runEnd(run.id);
  let heard = false;
  const heardEnd = end.ended.then(() => void (heard = true));
  try {
    for (let status = run.status; !FINISHED.includes(status);) {
      if (Date.now() > deadline) {
        failures.push(`the run did not finish in time (status ${status})`);
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      const poll = new Promise((r) => (timer = setTimeout(r, pollMs)));
      await (heard ? poll : Promise.race([poll, heardEnd]));
      clearTimeout(timer);
      // Named, so PostgreSQL plans it once per connection (planned afresh each time, 20 ms
      // polls cost ~4 s of the database's CPU in a 100,000-case run, counted as the executor's).
      const res = await uncounted(() =>
        watcher.query<{ status: string }>({
          name: "bench-run-status",
          text: `SELECT "status"::text AS status FROM "Run" WHERE "id" = $1`,
          values: [run.id],
        }),
      );
      status = res.rows[0]?.status ?? "missing";
    }
  } finally {
    end.cancel();
  }
}

export type ExecutorBenchResult = {
  cases: number;
  concurrency: number;
  latencyMs: number;
  /** The per-model-config request cap in force, and whether it is the product's (ASSAY_MODEL_CONCURRENCY). */
  endpointCap: number;
  endpointCapIsProduct: boolean;
  fakeSeparate: boolean;
  runner: "real" | "sleep";
  wallMs: number;
  idealMs: number;
  ratio: number;
  /** startRun called → first case started (PostgreSQL's clock for the latter: same machine). */
  firstClaimMs: number | null;
  /** Last case completed → run completedAt (finalize + summary). */
  finalizeMs: number | null;
  /** Average per case: duration (claim → runner done) and the agent call's latency. */
  avgCaseDurationMs: number | null;
  avgAgentLatencyMs: number | null;
  /** Sum of case durations / wall: how many cases were in flight on average. */
  effectiveConcurrency: number;
  rssBaselineBytes: number;
  rssPeakBytes: number;
  fakePeakRssBytes: number | null;
  cpuMs: number;
  fakeCpuMs: number | null;
  /** CPU of the embedded PostgreSQL (postmaster and backends) during the run. */
  dbCpuMs: number | null;
  /** The host's CPUs during the run (./host-cpu.ts): the share other tenants took (steal), and the share in use; null off Linux. */
  hostCpu: { stealPct: number; busyPct: number } | null;
  eventLoopDelayP99Ms: number;
  eventLoopDelayMaxMs: number;
  /** SQL statements / transactions the executor sent, per case (the bench's polling excluded). */
  statementsPerCase: number;
  transactionsPerCase: number;
  /** Client-observed time in SQL per case (statements overlap, so this is not wall time). */
  sqlMsPerCase: number;
  /**
   * Recorded agent-call latency (CaseResult.latencyMs) minus the fake's own time for the same
   * question, per case (the A/B engine wants it within ±10 ms); null with the sleeping runner.
   */
  latencyError: LatencyError | null;
  statuses: Record<string, number>;
  runStatus: string;
  chatRequests: number;
  fakeMaxConcurrent: number;
  /** --memory: the same executor ran a smaller run first; memory after each (after a full GC). */
  memory: MemoryGrowth | null;
  failures: string[];
};

/** Memory of the bench process after a full GC, after a smaller run and after the measured run of the same executor. */
export type MemoryGrowth = {
  baselineCases: number;
  rssAfterBaselineBytes: number;
  heapAfterBaselineBytes: number;
  rssAfterBytes: number;
  heapAfterBytes: number;
  rssGrowthBytes: number;
  heapGrowthBytes: number;
};

/** Memory once garbage is collected (the bench's own process; lets RSS and heap settle first). */
async function settledMemory(): Promise<{ rss: number; heap: number }> {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
}

/** The measured run's questions (`question <i>`), not the --memory baseline run's. */
const MEASURED_QUESTION = /^question \d+$/;

export type LatencyError = {
  /** Cases with both a recorded latency and a server time. */
  matched: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  minMs: number;
  /** The fake's own time per request (its timer plus its own event-loop lag): median and p95. */
  serverP50Ms: number;
  serverP95Ms: number;
  /**
   * The same error over the cases that started at least `warmMs` after the run was created: a
   * fresh process spends its first second opening pool connections (SCRAM), compiling Prisma
   * queries and JIT-compiling, which delays reading the first waves' responses. null when none.
   */
  warm: { afterMs: number; matched: number; p50Ms: number; p95Ms: number } | null;
  /** The same over the cases that started within that first second (what a cold start costs). */
  cold: { matched: number; p50Ms: number; p95Ms: number } | null;
};

/** Cases that start this long after the run was created count as warm (see LatencyError.warm). */
export const WARM_AFTER_MS = 1_000;

/** The q-quantile (0..1) of sorted samples, nearest rank. */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Pairs recorded latencies with the server's times by question. */
export function latencyError(
  recorded: { question: string; latencyMs: number; startedMs?: number | null }[],
  server: Map<string, number>,
  warmAfterMs = WARM_AFTER_MS,
): LatencyError | null {
  const errors: number[] = [];
  const warmErrors: number[] = [];
  const coldErrors: number[] = [];
  const serverMs: number[] = [];
  for (const r of recorded) {
    const s = server.get(r.question);
    if (s === undefined) continue;
    errors.push(r.latencyMs - s);
    serverMs.push(s);
    if (r.startedMs != null && r.startedMs >= warmAfterMs) warmErrors.push(r.latencyMs - s);
    else if (r.startedMs != null) coldErrors.push(r.latencyMs - s);
  }
  if (errors.length === 0) return null;
  errors.sort((a, b) => a - b);
  warmErrors.sort((a, b) => a - b);
  coldErrors.sort((a, b) => a - b);
  serverMs.sort((a, b) => a - b);
  return {
    matched: errors.length,
    p50Ms: quantile(errors, 0.5),
    p95Ms: quantile(errors, 0.95),
    maxMs: errors[errors.length - 1]!,
    minMs: errors[0]!,
    serverP50Ms: quantile(serverMs, 0.5),
    serverP95Ms: quantile(serverMs, 0.95),
    warm: warmErrors.length
      ? { afterMs: warmAfterMs, matched: warmErrors.length, p50Ms: quantile(warmErrors, 0.5), p95Ms: quantile(warmErrors, 0.95) }
      : null,
    cold: coldErrors.length ? { matched: coldErrors.length, p50Ms: quantile(coldErrors, 0.5), p95Ms: quantile(coldErrors, 0.95) } : null,
  };
}

/**
 * A runner that only sleeps `latencyMs` and returns a passed outcome with one recorded call: it
 * isolates the executor's own cost (claims, persistence, finalize) from the case runner and the
 * LLM client. Counts its calls like the fake does, for the same exactly-once checks.
 */
export function sleepRunner(latencyMs: number): { runner: CaseRunner; stats: () => FakeStats } {
  const lastUserMessages = new Map<string, number>();
  let inFlight = 0;
  let maxConcurrent = 0;
  let calls = 0;
  const runner: CaseRunner = async (job) => {
    const question = String((job.caseSnapshot as { initial_message?: unknown }).initial_message);
    lastUserMessages.set(question, (lastUserMessages.get(question) ?? 0) + 1);
    calls++;
    maxConcurrent = Math.max(maxConcurrent, ++inFlight);
    const started = performance.now();
    await new Promise((r) => setTimeout(r, latencyMs));
    inFlight--;
    const reply = "A reply from the sleeping runner.";
    const outcome: CaseOutcome = {
      status: "passed",
      transcript: [
        { role: "user", content: question },
        { role: "assistant", content: reply },
      ],
      actualResponse: reply,
      checkResults: [],
      toolCallResults: null,
      outcomeResults: [],
      metricResults: [],
      promptTokens: 12,
      completionTokens: 8,
      latencyMs: performance.now() - started,
      retryCount: 0,
      turns: 1,
      errorMessage: null,
      errorType: null,
      llmCalls: [
        {
          purpose: "agent",
          model: "fake-model",
          request: { model: "fake-model", messages: [{ role: "user", content: question }] },
          response: reply,
          error: null,
          attempts: 1,
          latencyMs: latencyMs,
          cached: false,
        },
      ],
    };
    return outcome;
  };
  return { runner, stats: () => ({ chatRequests: calls, maxConcurrent, lastUserMessages }) };
}

export async function makeBenchWorkspace(): Promise<WorkspaceContext> {
  const tag = Math.random().toString(36).slice(2, 8);
  const user = await db.user.create({ data: { email: `bench-${tag}@example.test`, name: "Bench" } });
  const workspace = await db.workspace.create({
    data: { name: `bench-${tag}`, memberships: { create: { userId: user.id, role: "owner" } } },
  });
  return { workspaceId: workspace.id, role: "owner", userId: user.id, apiKeyId: null };
}

/** A chat agent without tools on a model config pointing at `baseUrl`, and a suite of `cases` single-turn cases. */
export async function makeBenchSuite(
  ctx: WorkspaceContext,
  opts: { baseUrl: string; cases: number; name: string; tags?: (i: number) => string[]; questionPrefix?: string },
) {
  const modelConfig = await db.modelConfig.create({
    data: { workspaceId: ctx.workspaceId, name: `${opts.name}-model`, baseUrl: opts.baseUrl, model: "fake-model" },
  });
  const agent = await db.agent.create({
    data: {
      workspaceId: ctx.workspaceId,
      name: `${opts.name}-agent`,
      kind: "chat",
      systemPrompt: "You are a helpful assistant.",
      modelConfigId: modelConfig.id,
      tools: [],
    },
  });
  const suite = await db.suite.create({ data: { workspaceId: ctx.workspaceId, agentId: agent.id, name: opts.name } });
  const batch = 5_000;
  for (let start = 0; start < opts.cases; start += batch) {
    await db.testCase.createMany({
      data: Array.from({ length: Math.min(batch, opts.cases - start) }, (_, k) => {
        const i = start + k;
        return {
          workspaceId: ctx.workspaceId,
          suiteId: suite.id,
          name: `case ${i}`,
          initialMessage: `${opts.questionPrefix ?? "question"} ${i}`,
          sortOrder: i,
          tags: opts.tags?.(i) ?? [],
        };
      }),
    });
  }
  return { suiteId: suite.id, modelConfigId: modelConfig.id, agentId: agent.id };
}

export async function benchExecutor(opts: {
  ctx: WorkspaceContext;
  fake: BenchFake;
  cases: number;
  concurrency: number;
  latencyMs: number;
  /** null: the product's cap (ASSAY_MODEL_CONCURRENCY, set as lib/runs/worker.ts does). */
  endpointCap: number | null;
  /** "real": createCaseRunner() against the fake; "sleep": sleepRunner() (executor overhead only). */
  runner?: "real" | "sleep";
  /** Writes one CSV line per case: position, claimed and completed (ms after the run was created), duration, the agent's latency. */
  timelineFile?: string;
  /** Writes a CPU profile of the measured run only (startRun → completed) to this file. */
  profileFile?: string;
  /**
   * --memory: the same executor first runs this many cases (a suite of its own), then the
   * measured run; memory is read after a full GC after each (MemoryGrowth). 0: off.
   */
  memoryBaselineCases?: number;
  /** Skip the executor's warm-up of the model-call path and the agent's connections (what a process without them records). */
  coldStart?: boolean;
  /** CPU (ms) of the database server's processes so far, when it can be read. */
  dbCpuMs?: () => number | null;
  maxSlots?: number;
  pollMs?: number;
}): Promise<ExecutorBenchResult> {
  const { ctx, fake, cases, concurrency, latencyMs } = opts;
  const failures: string[] = [];
  const { suiteId, modelConfigId } = await makeBenchSuite(ctx, { baseUrl: fake.url, cases, name: `bench-${cases}x${concurrency}` });
  // The agent's endpoint limiter is keyed by model configuration id (lib/llm/concurrency.ts).
  setDefaultEndpointConcurrency(env.ASSAY_MODEL_CONCURRENCY); // as startExecutor() does
  if (opts.endpointCap !== null) setEndpointConcurrency(modelConfigId, opts.endpointCap);
  const endpointCap = endpointLimiter(modelConfigId).limit;

  const sleeping = opts.runner === "sleep" ? sleepRunner(latencyMs) : null;
  // As lib/runs/worker.ts builds it: the model-call path is warmed before the first claim.
  const executor = new Executor({
    runner: sleeping?.runner ?? createCaseRunner({ preconnect: !opts.coldStart }),
    maxSlots: opts.maxSlots ?? Math.max(64, concurrency),
    warmUp: sleeping || opts.coldStart ? undefined : () => warmUpModelCalls(),
  });
  executor.start();
  await executor.whenReady();
  await new Promise((r) => setTimeout(r, 200)); // let the start-up recovery pass settle

  let baselineMemory: { rss: number; heap: number } | null = null;
  if (opts.memoryBaselineCases) {
    const baseline = await makeBenchSuite(ctx, {
      baseUrl: fake.url,
      cases: opts.memoryBaselineCases,
      name: `bench-memory-${opts.memoryBaselineCases}x${concurrency}`,
      questionPrefix: "baseline question",
    });
    if (opts.endpointCap !== null) setEndpointConcurrency(baseline.modelConfigId, opts.endpointCap);
    const run = await startRun(ctx, baseline.suiteId, { concurrency }, "api");
    const until = Date.now() + Math.max(60_000, (opts.memoryBaselineCases / concurrency) * latencyMs * 10);
    let status: string = run.status;
    while (!FINISHED.includes(status) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await getRun(ctx, run.id)).status;
    }
    if (status !== "completed") failures.push(`the --memory baseline run ended ${status}, expected completed`);
    baselineMemory = await settledMemory();
  }

  const readCounts = installQueryCounter();
  const countsBefore = readCounts();
  const elDelay = monitorEventLoopDelay({ resolution: 10 });
  let rssPeak = process.memoryUsage().rss;
  const rssBaseline = rssPeak;
  // memoryUsage.rss() alone: the full memoryUsage() also walks the heap spaces, every 50 ms.
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  }, 50);
  const fakeCpuBefore = fake.cpuMs();
  const dbCpuBefore = opts.dbCpuMs?.() ?? null;
  const hostBefore = hostCpuSnapshot();
  const cpuBefore = process.cpuUsage();
  elDelay.enable();

  // Completion is watched over a separate plain `pg` connection: polling through the Prisma
  // client would add its own CPU and pool load to what is measured.
  const watcher = new pg.Client({ connectionString: env.DATABASE_URL });
  await watcher.connect();
  const profiler = opts.profileFile ? new Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.start");
  }
  const t0 = performance.now();
  const requestedAt = Date.now();
  const started = await startRun(ctx, suiteId, { concurrency }, "api");
  const deadline = Date.now() + Math.max(60_000, (cases / concurrency) * latencyMs * 10);
  await waitForRunEnd(watcher, started, deadline, failures, opts.pollMs);
  const wallMs = performance.now() - t0;
  if (profiler) {
    const { profile } = await profiler.post("Profiler.stop");
    writeFileSync(opts.profileFile!, JSON.stringify(profile));
    profiler.disconnect();
  }
  await watcher.end();

  elDelay.disable();
  const cpu = process.cpuUsage(cpuBefore);
  const fakeCpuAfter = fake.cpuMs();
  const dbCpuAfter = opts.dbCpuMs?.() ?? null;
  const hostCpu = hostCpuShares(hostBefore, hostCpuSnapshot());
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  await executor.stop(5_000);
  const afterMemory = baselineMemory ? await settledMemory() : null;
  const countsAfter = readCounts();
  const run = await getRun(ctx, started.id);

  const grouped = await db.caseResult.groupBy({ by: ["status"], where: { runId: started.id }, _count: { _all: true } });
  const statuses = Object.fromEntries(grouped.map((g) => [g.status, g._count._all]));
  const [timing] = await db.$queryRaw<
    {
      first_started: number | null;
      finalize: number | null;
      avg_duration: number | null;
      avg_latency: number | null;
      sum_duration: number | null;
    }[]
  >`
    SELECT (extract(epoch FROM min(c."startedAt")) * 1000)::float AS first_started,
           (extract(epoch FROM (r."completedAt" - max(c."completedAt"))) * 1000)::float AS finalize,
           avg(c."durationMs")::float AS avg_duration, avg(c."latencyMs")::float AS avg_latency,
           sum(c."durationMs")::float AS sum_duration
    FROM "Run" r JOIN "CaseResult" c ON c."runId" = r."id"
    WHERE r."id" = ${started.id}::uuid GROUP BY r."id"`;

  if (opts.timelineFile) {
    const rows = await db.$queryRaw<{ line: string }[]>`
      SELECT concat_ws(',', c."position", round((extract(epoch FROM c."startedAt" - r."createdAt") * 1000)::numeric, 1),
                       round((extract(epoch FROM c."completedAt" - r."createdAt") * 1000)::numeric, 1), c."durationMs", c."latencyMs") AS line
      FROM "CaseResult" c JOIN "Run" r ON r."id" = c."runId" WHERE r."id" = ${started.id}::uuid ORDER BY c."startedAt", c."position"`;
    writeFileSync(opts.timelineFile, `position,claimed_ms,completed_ms,duration_ms,latency_ms\n${rows.map((r) => r.line).join("\n")}\n`);
  }
  const fakeStats = sleeping ? sleeping.stats() : await fake.stats();
  let accuracy: LatencyError | null = null;
  if (!sleeping) {
    const recorded = await db.$queryRaw<{ question: string; latency_ms: number; started_ms: number | null }[]>`
      SELECT c."caseSnapshot"->>'initial_message' AS question, c."latencyMs" AS latency_ms,
             (extract(epoch FROM (c."startedAt" - r."createdAt")) * 1000)::float AS started_ms
      FROM "CaseResult" c JOIN "Run" r ON r."id" = c."runId"
      WHERE c."runId" = ${started.id}::uuid AND c."latencyMs" IS NOT NULL`;
    const server = await fake.serverTimes(cases);
    accuracy = latencyError(
      recorded.map((r) => ({ question: r.question, latencyMs: Number(r.latency_ms), startedMs: r.started_ms })),
      server,
    );
    if (!accuracy) failures.push("no case could be paired with the fake's own time");
  }
  if (run.status !== "completed") failures.push(`run ended ${run.status}, expected completed`);
  if ((statuses.passed ?? 0) !== cases) failures.push(`${statuses.passed ?? 0}/${cases} cases passed (${JSON.stringify(statuses)})`);
  if (run.passed_cases !== cases) failures.push(`run.passed_cases = ${run.passed_cases}, expected ${cases}`);
  const measuredRequests = [...fakeStats.lastUserMessages].reduce((n, [q, k]) => n + (MEASURED_QUESTION.test(q) ? k : 0), 0);
  if (measuredRequests !== cases) failures.push(`the fake saw ${measuredRequests} chat requests, expected exactly ${cases}`);
  const missing = Array.from({ length: cases }, (_, i) => `question ${i}`).filter((q) => fakeStats.lastUserMessages.get(q) !== 1);
  if (missing.length)
    failures.push(
      `${missing.length} cases were not asked exactly once (e.g. "${missing[0]}": ${fakeStats.lastUserMessages.get(missing[0]!) ?? 0}×)`,
    );
  if (fakeStats.maxConcurrent > concurrency)
    failures.push(`the fake saw ${fakeStats.maxConcurrent} concurrent requests, above the bound ${concurrency}`);

  const idealMs = Math.ceil(cases / concurrency) * latencyMs;
  return {
    cases,
    concurrency,
    latencyMs,
    endpointCap,
    endpointCapIsProduct: opts.endpointCap === null,
    fakeSeparate: fake.separate,
    runner: sleeping ? "sleep" : "real",
    wallMs,
    idealMs,
    ratio: idealMs > 0 ? wallMs / idealMs : NaN,
    firstClaimMs: timing?.first_started == null ? null : timing.first_started - requestedAt,
    finalizeMs: timing?.finalize ?? null,
    avgCaseDurationMs: timing?.avg_duration ?? null,
    avgAgentLatencyMs: timing?.avg_latency ?? null,
    effectiveConcurrency: (timing?.sum_duration ?? 0) / wallMs,
    rssBaselineBytes: rssBaseline,
    rssPeakBytes: rssPeak,
    fakePeakRssBytes: fake.peakRssBytes(),
    cpuMs: (cpu.user + cpu.system) / 1000,
    fakeCpuMs: fakeCpuBefore !== null && fakeCpuAfter !== null ? fakeCpuAfter - fakeCpuBefore : null,
    dbCpuMs: dbCpuBefore !== null && dbCpuAfter !== null ? dbCpuAfter - dbCpuBefore : null,
    hostCpu,
    eventLoopDelayP99Ms: elDelay.percentile(99) / 1e6,
    eventLoopDelayMaxMs: elDelay.max / 1e6,
    statementsPerCase: (countsAfter.statements - countsBefore.statements) / cases,
    transactionsPerCase: (countsAfter.transactions - countsBefore.transactions) / cases,
    sqlMsPerCase: (countsAfter.busyMs - countsBefore.busyMs) / cases,
    latencyError: accuracy,
    statuses,
    runStatus: run.status,
    chatRequests: measuredRequests,
    fakeMaxConcurrent: fakeStats.maxConcurrent,
    memory:
      baselineMemory && afterMemory
        ? {
            baselineCases: opts.memoryBaselineCases!,
            rssAfterBaselineBytes: baselineMemory.rss,
            heapAfterBaselineBytes: baselineMemory.heap,
            rssAfterBytes: afterMemory.rss,
            heapAfterBytes: afterMemory.heap,
            rssGrowthBytes: afterMemory.rss - baselineMemory.rss,
            heapGrowthBytes: afterMemory.heap - baselineMemory.heap,
          }
        : null,
    failures,
  };
}
