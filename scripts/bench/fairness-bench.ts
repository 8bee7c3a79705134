// `npm run bench -- --fairness`: workspace A runs a huge suite against a slow
// agent while workspace B starts a small one against a normal agent, both on one executor.
// Reports B's wall time next to B alone (the ratio), how soon B's first case was claimed, how
// many slots B got, and the invariants (every case exactly once, concurrency and cap held).
// Imports lib/: load it only after DATABASE_URL is set.
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { setDefaultEndpointConcurrency } from "@/lib/llm";
import { Executor } from "@/lib/runs/executor";
import { createCaseRunner } from "@/lib/runs/case-runner";
import { startRun } from "@/lib/runs/service";
import type { BenchFake } from "./fake";
import { makeBenchSuite, makeBenchWorkspace } from "./executor-bench";
import { RunWatcher, runFailures, type RunTimings } from "./run-watch";
import { correctnessLine, table } from "./report";

export type FairnessBenchResult = {
  /** Slots of the one executor (ASSAY_WORKER_SLOTS unless --slots) and the workspace cap (null: none). */
  slots: number;
  workspaceCap: number | null;
  big: { cases: number; concurrency: number; latencyMs: number; runningWhenSmallStarted: number; timings: RunTimings; maxRunning: number };
  small: {
    cases: number;
    concurrency: number;
    latencyMs: number;
    alone: RunTimings;
    contended: RunTimings;
    /** Contended ÷ alone, run createdAt → completedAt (target: near 1; first-come was ~ the big run's whole time). */
    ratio: number | null;
    /** Most of B's cases running at once while A held the rest. */
    maxRunning: number;
  };
  /** Highest running cases of each workspace at once (sampled), for the cap. */
  maxRunningBig: number;
  maxRunningSmall: number;
  failures: string[];
};

export async function benchFairness(opts: {
  fake: BenchFake;
  /** Workspace B's small run: cases, concurrency, latency (the fake's base latency). */
  cases: number;
  concurrency: number;
  latencyMs: number;
  /** Workspace A's big run against the slow agent. */
  bigCases: number;
  bigConcurrency: number;
  slowLatencyMs: number;
  slots: number | null;
  workspaceCap: number | null;
  say: (line: string) => void;
}): Promise<FairnessBenchResult> {
  const { fake, say } = opts;
  const slots = opts.slots ?? env.ASSAY_WORKER_SLOTS;
  const failures: string[] = [];
  await fake.setRules([{ match: { model: "slow-model" }, reply: { delayMs: Math.max(0, opts.slowLatencyMs - opts.latencyMs) } }]);
  const a = await makeBenchWorkspace();
  const b = await makeBenchWorkspace();
  const big = await makeBenchSuite(a, { baseUrl: fake.url, cases: opts.bigCases, name: "fair-big", questionPrefix: "slow question" });
  await db.modelConfig.update({ where: { id: big.modelConfigId }, data: { model: "slow-model" } });
  const small = (prefix: string, cases = opts.cases) =>
    makeBenchSuite(b, { baseUrl: fake.url, cases, name: prefix, questionPrefix: prefix });
  const warm = await small("warm question", Math.min(opts.cases, 50));
  const alone = await small("alone question");
  const contended = await small("fair question");

  setDefaultEndpointConcurrency(env.ASSAY_MODEL_CONCURRENCY); // as startExecutor() does
  const executor = new Executor({ runner: createCaseRunner(), maxSlots: slots, workspaceMaxRunning: opts.workspaceCap });
  executor.start();
  const watcher = await RunWatcher.open(env.DATABASE_URL!);
  const timeoutMs = (ms: number, cases: number, concurrency: number) => Math.max(60_000, (cases / Math.min(concurrency, slots)) * ms * 5);
  try {
    const start = (ctx: WorkspaceContext, suiteId: string, concurrency: number) => startRun(ctx, suiteId, { concurrency }, "api");

    say(`warming up with ${Math.min(opts.cases, 50)} cases…`);
    const warmRun = await start(b, warm.suiteId, opts.concurrency);
    await watcher.waitAll([warmRun.id], { timeoutMs: timeoutMs(opts.latencyMs, opts.cases, opts.concurrency) });

    say(`B alone: ${opts.cases} cases × ${opts.latencyMs} ms at concurrency ${opts.concurrency}…`);
    const aloneRun = await start(b, alone.suiteId, opts.concurrency);
    const aloneWatch = await watcher.waitAll([aloneRun.id], { timeoutMs: timeoutMs(opts.latencyMs, opts.cases, opts.concurrency) });

    say(`A: ${opts.bigCases} cases × ${opts.slowLatencyMs} ms at concurrency ${opts.bigConcurrency}; B starts once A holds its slots…`);
    const bigRun = await start(a, big.suiteId, opts.bigConcurrency);
    const wanted = Math.min(slots, opts.bigConcurrency, opts.workspaceCap ?? Number.POSITIVE_INFINITY, opts.bigCases);
    let bigRunning = 0;
    await watcher.waitAll([bigRun.id], {
      timeoutMs: 10_000,
      until: () => bigRunning >= wanted,
      onSample: (running) => (bigRunning = running.get(bigRun.id) ?? 0),
    });
    // Into the slow wave: B arrives while A's cases are mid-call, as it would at any moment.
    await new Promise((r) => setTimeout(r, Math.floor(opts.slowLatencyMs / 2)));
    const contendedRun = await start(b, contended.suiteId, opts.concurrency);
    const both = await watcher.waitAll([bigRun.id, contendedRun.id], {
      pollMs: 20,
      timeoutMs: timeoutMs(opts.slowLatencyMs, opts.bigCases, opts.bigConcurrency),
    });

    const fakeStats = await fake.stats();
    // One watcher connection: its queries one after the other.
    const aloneTimings = await watcher.timings(aloneRun.id);
    const contendedTimings = await watcher.timings(contendedRun.id);
    const bigTimings = await watcher.timings(bigRun.id);
    const check = async (
      label: string,
      runId: string,
      cases: number,
      prefix: string,
      concurrency: number,
      maxRunning: number,
      status?: string,
    ) =>
      failures.push(
        ...runFailures(label, { status, statuses: await watcher.statuses(runId), cases, prefix, maxRunning, concurrency }, fakeStats),
      );
    await check(
      "B alone",
      aloneRun.id,
      opts.cases,
      "alone question",
      opts.concurrency,
      aloneWatch.maxRunningByRun.get(aloneRun.id) ?? 0,
      aloneWatch.status.get(aloneRun.id),
    );
    const maxSmall = both.maxRunningByRun.get(contendedRun.id) ?? 0;
    const maxBig = both.maxRunningByRun.get(bigRun.id) ?? 0;
    await check("B with A", contendedRun.id, opts.cases, "fair question", opts.concurrency, maxSmall, both.status.get(contendedRun.id));
    await check("A", bigRun.id, opts.bigCases, "slow question", opts.bigConcurrency, maxBig, both.status.get(bigRun.id));
    const maxWsBig = both.maxRunningByWorkspace.get(a.workspaceId) ?? 0;
    const maxWsSmall = both.maxRunningByWorkspace.get(b.workspaceId) ?? 0;
    if (opts.workspaceCap !== null) {
      for (const [label, n] of [
        ["A", maxWsBig],
        ["B", maxWsSmall],
      ] as const) {
        if (n > opts.workspaceCap)
          failures.push(`workspace ${label}: ${n} cases running at once, above ASSAY_WORKSPACE_MAX_RUNNING ${opts.workspaceCap}`);
      }
    }
    const ratio =
      aloneTimings.createdToCompletedMs && contendedTimings.createdToCompletedMs
        ? contendedTimings.createdToCompletedMs / aloneTimings.createdToCompletedMs
        : null;
    return {
      slots,
      workspaceCap: opts.workspaceCap,
      big: {
        cases: opts.bigCases,
        concurrency: opts.bigConcurrency,
        latencyMs: opts.slowLatencyMs,
        runningWhenSmallStarted: bigRunning,
        timings: bigTimings,
        maxRunning: maxBig,
      },
      small: {
        cases: opts.cases,
        concurrency: opts.concurrency,
        latencyMs: opts.latencyMs,
        alone: aloneTimings,
        contended: contendedTimings,
        ratio,
        maxRunning: maxSmall,
      },
      maxRunningBig: maxWsBig,
      maxRunningSmall: maxWsSmall,
      failures,
    };
  } finally {
    await watcher.close();
    await executor.stop(5_000);
  }
}

const s = (ms: number | null) => (ms === null ? "n/a" : `${(ms / 1000).toFixed(2)} s`);

export function formatFairnessReport(r: FairnessBenchResult, meta: { database: string; loadBefore: string; loadAfter: string }): string {
  const rows: [string, string][] = [
    [
      "B alone (createdAt → completed)",
      `${s(r.small.alone.createdToCompletedMs)} (first case claimed after ${s(r.small.alone.firstClaimMs)})`,
    ],
    [
      "B while A runs",
      `${s(r.small.contended.createdToCompletedMs)} (first case claimed after ${s(r.small.contended.firstClaimMs)}; at most ${r.small.maxRunning} of B running)`,
    ],
    ["ratio B with A / B alone", r.small.ratio === null ? "n/a" : r.small.ratio.toFixed(2)],
    ["A (createdAt → completed)", `${s(r.big.timings.createdToCompletedMs)} (held ${r.big.runningWhenSmallStarted} slots when B started)`],
    [
      "most running at once",
      `A ${r.maxRunningBig}, B ${r.maxRunningSmall} (slots ${r.slots}${r.workspaceCap === null ? "" : `, cap ${r.workspaceCap}`})`,
    ],
  ];
  return [
    `Assay fairness benchmark — workspace A: ${r.big.cases} cases × ${r.big.latencyMs} ms at concurrency ${r.big.concurrency}; workspace B: ${r.small.cases} cases × ${r.small.latencyMs} ms at concurrency ${r.small.concurrency}`,
    `  one executor with ${r.slots} slots · ASSAY_WORKSPACE_MAX_RUNNING ${r.workspaceCap ?? "unset"} · database: ${meta.database} · load avg before ${meta.loadBefore}, after ${meta.loadAfter}`,
    "",
    table(rows),
    "",
    correctnessLine(r.failures, "correctness: every case passed and was asked exactly once; concurrency bounds (and the cap) held"),
  ].join("\n");
}
