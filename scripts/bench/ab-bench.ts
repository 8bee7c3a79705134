// The A/B mode of `npm run bench`: N single-turn cases compared on two arms whose
// models answer in different times (baseline 200 ms, variant 260 ms by default) at a given
// concurrency, through the comparison engine, timed from createComparison to completion.
// Reports how far the recorded latency diff is from the true one: against the nominal
// difference (variant − baseline latency setting) and against the fake's own measured times.
// Imports lib/: load it only after DATABASE_URL is set.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { setDefaultEndpointConcurrency } from "@/lib/llm";
import { Executor } from "@/lib/runs/executor";
import { createCaseRunner } from "@/lib/runs/case-runner";
import { createComparison, getComparison } from "@/lib/comparisons/service";
import type { StoredExecution } from "@/lib/comparisons/dto";
import type { ComparisonOrdering } from "@/lib/comparisons/schemas";
import type { BenchFake } from "./fake";
import { makeBenchSuite, quantile, WARM_AFTER_MS } from "./executor-bench";
import { table } from "./report";

const FINISHED = ["completed", "failed", "cancelled"];
const BASELINE_MODEL = "fake-model";
const VARIANT_MODEL = "fake-model-variant";

export type Spread = { p50Ms: number; p95Ms: number; maxAbsMs: number };

export type AbBenchResult = {
  cases: number;
  /** Cases of the unmeasured warm-up comparison run before (0: the measured one starts cold). */
  warmupCases: number;
  concurrency: number;
  ordering: ComparisonOrdering;
  baselineLatencyMs: number;
  variantLatencyMs: number;
  resetWindowMs: number;
  wallMs: number;
  /** Waves of `concurrency` pairs, each pair baseline + reset window + variant (sequential). */
  idealMs: number;
  ratio: number;
  status: string;
  pairs: number;
  comparablePairs: number;
  /** Recorded latency_diff_ms − (variant − baseline latency setting), over pairs. */
  diffErrorVsNominal: Spread | null;
  /** Recorded latency_diff_ms − the fake's own time difference for the same two requests. */
  diffErrorVsServer: Spread | null;
  /** Recorded − server time per execution, both arms. */
  executionError: Spread | null;
  /** The same two over pairs whose baseline started ≥ 1 s after the comparison was created (the process warm). */
  warmDiffErrorVsNominal: Spread | null;
  warmExecutionError: Spread | null;
  medianDiffMs: number | null;
  medianDiffCi95: [number, number] | null;
  verdict: string | null;
  eventLoopDelayP99Ms: number;
  failures: string[];
};

function spread(values: number[]): Spread | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50Ms: quantile(sorted, 0.5),
    p95Ms: quantile(
      [...values].map(Math.abs).sort((a, b) => a - b),
      0.95,
    ),
    maxAbsMs: Math.max(...values.map(Math.abs)),
  };
}

export async function benchAb(opts: {
  ctx: WorkspaceContext;
  fake: BenchFake;
  cases: number;
  concurrency: number;
  baselineLatencyMs: number;
  variantLatencyMs: number;
  ordering: ComparisonOrdering;
  resetWindowMs?: number;
  /** Cases of an unmeasured comparison run first, so the measured one runs in a warm process (JIT, pool, query plans). */
  warmupCases?: number;
}): Promise<AbBenchResult> {
  const { ctx, fake, cases, concurrency, baselineLatencyMs, variantLatencyMs, ordering } = opts;
  const resetWindowMs = opts.resetWindowMs ?? 100;
  const failures: string[] = [];
  // The fake's base latency is the baseline's; the variant's model answers later by the difference.
  const extra = variantLatencyMs - baselineLatencyMs;
  if (extra < 0) throw new Error("the variant latency must be ≥ the baseline latency");
  await fake.setRules([{ match: { model: VARIANT_MODEL }, reply: { delayMs: extra } }]);

  const { suiteId } = await makeBenchSuite(ctx, { baseUrl: fake.url, cases, name: `ab-${cases}x${concurrency}` });
  const variantConfig = await db.modelConfig.create({
    data: { workspaceId: ctx.workspaceId, name: `ab-variant-${cases}x${concurrency}`, baseUrl: fake.url, model: VARIANT_MODEL },
  });
  setDefaultEndpointConcurrency(env.ASSAY_MODEL_CONCURRENCY);
  const executor = new Executor({ runner: createCaseRunner(), maxSlots: Math.max(64, concurrency * 2) });
  executor.start();
  await new Promise((r) => setTimeout(r, 200));

  const warmupCases = opts.warmupCases ?? 0;
  if (warmupCases > 0) {
    const warm = await makeBenchSuite(ctx, {
      baseUrl: fake.url,
      cases: warmupCases,
      name: `ab-warmup-${cases}x${concurrency}`,
      questionPrefix: "warm-up",
    });
    const w = await createComparison(ctx, warm.suiteId, {
      name: "warm-up",
      baseline: {},
      variant: { model_config_id: variantConfig.id },
      ordering,
      reset_window_ms: resetWindowMs,
      concurrency,
      seed: 1,
    });
    for (let status: string = w.status; !FINISHED.includes(status);) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await db.comparison.findUnique({ where: { id: w.id }, select: { status: true } }))?.status ?? "missing";
    }
  }

  const elDelay = monitorEventLoopDelay({ resolution: 10 });
  elDelay.enable();
  const t0 = performance.now();
  const created = await createComparison(ctx, suiteId, {
    name: "bench",
    baseline: { label: `${baselineLatencyMs} ms` },
    variant: { label: `${variantLatencyMs} ms`, model_config_id: variantConfig.id },
    ordering,
    reset_window_ms: resetWindowMs,
    concurrency,
    seed: 1,
  });
  const deadline = Date.now() + Math.max(60_000, (cases / concurrency) * (variantLatencyMs + baselineLatencyMs + resetWindowMs) * 10);
  let status: string = created.status;
  while (!FINISHED.includes(status)) {
    if (Date.now() > deadline) {
      failures.push(`the comparison did not finish in time (status ${status})`);
      break;
    }
    await new Promise((r) => setTimeout(r, 20));
    const row = await db.comparison.findUnique({ where: { id: created.id }, select: { status: true } });
    status = row?.status ?? "missing";
  }
  const wallMs = performance.now() - t0;
  elDelay.disable();
  await executor.stop(5_000);

  const done = await getComparison(ctx, created.id);
  const pairs = await db.comparisonPair.findMany({
    where: { comparisonId: created.id },
    orderBy: { index: "asc" },
    select: { question: true, executions: true, latencyDiffMs: true, bothSuccessful: true },
  });
  const server = await fake.serverTimesByModel(cases * 2 + warmupCases * 2);
  const nominal: number[] = [];
  const vsServer: number[] = [];
  const perExecution: number[] = [];
  const warmNominal: number[] = [];
  const warmExecution: number[] = [];
  const warmFrom = Date.parse(created.created_at) + WARM_AFTER_MS;
  for (const p of pairs) {
    if (!p.bothSuccessful || p.latencyDiffMs === null) continue;
    const [a, b] = p.executions as unknown as [StoredExecution, StoredExecution];
    const warm = a.timestamp !== null && Date.parse(a.timestamp) >= warmFrom;
    nominal.push(p.latencyDiffMs - extra);
    if (warm) warmNominal.push(p.latencyDiffMs - extra);
    const sa = server.get(`${BASELINE_MODEL}\u0000${p.question}`);
    const sb = server.get(`${VARIANT_MODEL}\u0000${p.question}`);
    if (sa !== undefined && sb !== undefined) {
      vsServer.push(p.latencyDiffMs - (sb - sa));
      perExecution.push(a.latency_ms - sa, b.latency_ms - sb);
      if (warm) warmExecution.push(a.latency_ms - sa, b.latency_ms - sb);
    }
  }
  if (done.status !== "completed") failures.push(`comparison ended ${done.status}, expected completed`);
  if (pairs.length !== cases) failures.push(`${pairs.length} pairs, expected ${cases}`);
  if ((done.summary?.comparable_pairs ?? 0) !== cases) failures.push(`${done.summary?.comparable_pairs ?? 0}/${cases} pairs comparable`);
  const perPair = ordering === "concurrent" ? variantLatencyMs : baselineLatencyMs + resetWindowMs + variantLatencyMs;
  const idealMs = Math.ceil(cases / concurrency) * perPair;
  return {
    cases,
    warmupCases,
    concurrency,
    ordering,
    baselineLatencyMs,
    variantLatencyMs,
    resetWindowMs,
    wallMs,
    idealMs,
    ratio: wallMs / idealMs,
    status: done.status,
    pairs: pairs.length,
    comparablePairs: done.summary?.comparable_pairs ?? 0,
    diffErrorVsNominal: spread(nominal),
    diffErrorVsServer: spread(vsServer),
    executionError: spread(perExecution),
    warmDiffErrorVsNominal: spread(warmNominal),
    warmExecutionError: spread(warmExecution),
    medianDiffMs: done.summary?.diffs.latency_diff_ms.median ?? null,
    medianDiffCi95: done.summary?.diffs.latency_diff_ms.median_ci95 ?? null,
    verdict: done.summary?.verdict ?? null,
    eventLoopDelayP99Ms: elDelay.percentile(99) / 1e6,
    failures,
  };
}

export function formatAbReport(r: AbBenchResult, meta: { database: string; loadBefore: string; loadAfter: string }): string {
  const ms = (v: number | null | undefined, d = 1) => (v === null || v === undefined ? "n/a" : `${v.toFixed(d)} ms`);
  const sp = (s: Spread | null) => (s ? `p50 ${ms(s.p50Ms)}, |p95| ${ms(s.p95Ms)}, max |${ms(s.maxAbsMs)}|` : "n/a");
  const rows: [string, string][] = [
    ["wall time", `${(r.wallMs / 1000).toFixed(2)} s`],
    ["ideal", `${(r.idealMs / 1000).toFixed(2)} s (${Math.ceil(r.cases / r.concurrency)} waves of one pair each)`],
    ["ratio to ideal", r.ratio.toFixed(3)],
    ["pairs / comparable", `${r.pairs} / ${r.comparablePairs} (${r.status})`],
    [`diff error vs nominal ${r.variantLatencyMs - r.baselineLatencyMs} ms`, `${sp(r.diffErrorVsNominal)} (target |p95| ≤ 10 ms)`],
    ["diff error vs the fake's own times", sp(r.diffErrorVsServer)],
    ["recorded − server, per execution", sp(r.executionError)],
    [
      "  … pairs started ≥ 1 s after the measured comparison was created",
      `diff error ${sp(r.warmDiffErrorVsNominal)}; per execution ${sp(r.warmExecutionError)}`,
    ],
    [
      "median latency diff (95 % CI)",
      `${ms(r.medianDiffMs)} (${r.medianDiffCi95 ? r.medianDiffCi95.map((v) => v.toFixed(1)).join(" – ") : "n/a"})`,
    ],
    ["verdict", r.verdict ?? "n/a"],
    ["event loop delay p99", ms(r.eventLoopDelayP99Ms)],
  ];
  return [
    `Assay A/B benchmark — ${r.cases} cases, baseline ${r.baselineLatencyMs} ms vs variant ${r.variantLatencyMs} ms, ${r.ordering} (reset window ${r.resetWindowMs} ms), concurrency ${r.concurrency}`,
    `  ${r.warmupCases > 0 ? `after an unmeasured warm-up comparison of ${r.warmupCases} cases (--warmup 0 measures a cold process)` : "cold process (no warm-up)"} · database: ${meta.database} · load avg before ${meta.loadBefore}, after ${meta.loadAfter}`,
    "",
    table(rows),
    ...(r.failures.length ? ["", ...r.failures.map((f) => `  FAILED: ${f}`)] : []),
  ].join("\n");
}
