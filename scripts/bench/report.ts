// Formats the bench results as a compact table.
import os from "node:os";
import type { ExecutorBenchResult } from "./executor-bench";
import type { HistoryBenchResult } from "./history-bench";

/** The scale goal: wall time within 1.2× ideal up to 1,000 cases, 1.25× for larger runs (10,000 cases). */
export function targetRatio(cases: number): number {
  return cases <= 1000 ? 1.2 : 1.25;
}
/**
 * The stricter throughput goal of the plain mode, set for 200 ms cases at concurrency 50: 1,000
 * cases, 10,000, and larger runs. Null for other shapes, which it says nothing about.
 */
export function throughputGoal(e: { cases: number; latencyMs: number; concurrency: number }): number | null {
  if (e.latencyMs !== 200 || e.concurrency !== 50) return null;
  return e.cases <= 1000 ? 1.08 : e.cases <= 10_000 ? 1.04 : 1.05;
}
/** Whether a run met the throughput goal; null when the goal does not apply to its shape. */
export function throughputGoalMet(e: { cases: number; latencyMs: number; concurrency: number; ratio: number }): boolean | null {
  const goal = throughputGoal(e);
  return goal === null ? null : e.ratio <= goal;
}
/** Above this share of steal, a report says its wall-clock figures are not the code's alone. */
const STEAL_WARNING_PCT = 5;
/** The scale goal: RSS may grow by less than this from a 1,000-case to a 10,000-case run. */
export const MEMORY_GROWTH_TARGET_MB = 50;

const mb = (b: number | null) => (b === null ? "n/a" : `${(b / 1024 / 1024).toFixed(0)} MB`);
const signedMb = (b: number) => `${b >= 0 ? "+" : "−"}${(Math.abs(b) / 1024 / 1024).toFixed(1)} MB`;
const ms = (v: number | null, digits = 0) => (v === null ? "n/a" : `${v.toFixed(digits)} ms`);

/** A report's figures as two columns, the labels padded to the longest. */
export function table(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join("\n");
}

/** A report's closing verdict: its correctness failures, one a line, or `ok` when there are none. */
export function correctnessLine(failures: string[], ok: string): string {
  return failures.length ? `CORRECTNESS FAILURES:\n${failures.map((f) => `  - ${f}`).join("\n")}` : ok;
}

export function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
}

/** Which database a bench ran against, as its report's header says. */
export function databaseLabel(database: { embedded: boolean }): string {
  return database.embedded ? "embedded PostgreSQL" : "BENCH_DATABASE_URL/DATABASE_URL server";
}

/** A finished bench's report header: the database and the load average before and now. */
export function benchMeta(database: { embedded: boolean }, loadBefore: string) {
  return { database: databaseLabel(database), loadBefore, loadAfter: loadAverage() };
}

export function formatReport(
  e: ExecutorBenchResult,
  h: HistoryBenchResult | null,
  meta: { database: string; loadBefore: string; loadAfter: string },
): string {
  const target = targetRatio(e.cases);
  const verdict = e.ratio <= target ? "target met" : "target missed";
  const goal = throughputGoal(e);
  const lines = [
    `Assay executor benchmark — ${e.cases} single-turn cases × ${e.latencyMs} ms at concurrency ${e.concurrency}`,
    `  runner: ${e.runner === "sleep" ? "sleep only (executor overhead; no LLM client, no fake)" : "createCaseRunner()"} · fake OpenAI server: ${e.fakeSeparate ? "own process" : "in process"} · database: ${meta.database} · ${os.cpus().length} CPUs · load avg before ${meta.loadBefore}, after ${meta.loadAfter}`,
    `  per-model-config request cap: ${e.endpointCap} (${e.endpointCapIsProduct ? "ASSAY_MODEL_CONCURRENCY" : "--endpoint-cap"})`,
    ...(e.endpointCap < e.concurrency
      ? [
          `  note: the cap bounds concurrency below the run's ${e.concurrency}; the ideal under the cap is ${((Math.ceil(e.cases / e.endpointCap) * e.latencyMs) / 1000).toFixed(1)} s`,
        ]
      : []),
    "",
    table([
      ["wall time", `${(e.wallMs / 1000).toFixed(2)} s`],
      ["ideal", `${(e.idealMs / 1000).toFixed(2)} s`],
      [
        "ratio to ideal",
        `${e.ratio.toFixed(3)}  (target ≤ ${target}: ${verdict}${goal === null ? "" : `; throughput goal ≤ ${goal}: ${throughputGoalMet(e) ? "met" : "missed"}`})`,
      ],
      [
        "host CPUs during the run",
        e.hostCpu
          ? `${e.hostCpu.busyPct.toFixed(0)} % busy, ${e.hostCpu.stealPct.toFixed(1)} % taken by other tenants (steal)${e.hostCpu.stealPct > STEAL_WARNING_PCT ? " — the wall-clock figures are not the code's alone" : ""}`
          : "n/a (no /proc/stat)",
      ],
      ["effective concurrency", `${e.effectiveConcurrency.toFixed(1)} of ${e.concurrency}`],
      ["startRun called → first case started", ms(e.firstClaimMs)],
      ["last case done → run completed", ms(e.finalizeMs)],
      ["avg case duration / agent call", `${ms(e.avgCaseDurationMs, 1)} / ${ms(e.avgAgentLatencyMs, 1)}`],
      ["peak RSS (bench process)", `${mb(e.rssPeakBytes)} (at start ${mb(e.rssBaselineBytes)})`],
      ...(e.memory
        ? ([
            [
              `memory after ${e.memory.baselineCases} → ${e.cases} cases`,
              `RSS ${mb(e.memory.rssAfterBaselineBytes)} → ${mb(e.memory.rssAfterBytes)}, heap ${mb(e.memory.heapAfterBaselineBytes)} → ${mb(e.memory.heapAfterBytes)} (after a full GC, same executor)`,
            ],
            [
              "  growth",
              `RSS ${signedMb(e.memory.rssGrowthBytes)}, heap ${signedMb(e.memory.heapGrowthBytes)} (target: RSS < +${MEMORY_GROWTH_TARGET_MB} MB: ${e.memory.rssGrowthBytes < MEMORY_GROWTH_TARGET_MB * 1024 * 1024 ? "met" : "missed"})`,
            ],
          ] as [string, string][])
        : []),
      ["peak RSS (fake server)", e.fakeSeparate ? mb(e.fakePeakRssBytes) : "(in process)"],
      ["CPU (bench process)", `${(e.cpuMs / 1000).toFixed(2)} s = ${(e.cpuMs / e.cases).toFixed(2)} ms/case`],
      [
        "CPU (fake server)",
        e.fakeCpuMs === null ? "(in process)" : `${(e.fakeCpuMs / 1000).toFixed(2)} s = ${(e.fakeCpuMs / e.cases).toFixed(2)} ms/request`,
      ],
      [
        "CPU (PostgreSQL)",
        e.dbCpuMs === null ? "n/a (external server)" : `${(e.dbCpuMs / 1000).toFixed(2)} s = ${(e.dbCpuMs / e.cases).toFixed(2)} ms/case`,
      ],
      [
        "CPU, all three, per case",
        `${((e.cpuMs + (e.fakeCpuMs ?? 0) + (e.dbCpuMs ?? 0)) / e.cases).toFixed(2)} ms (budget at the ideal on ${os.cpus().length} idle CPUs: ${((e.idealMs * os.cpus().length) / e.cases).toFixed(1)} ms)`,
      ],
      [
        "recorded − server latency",
        e.latencyError
          ? `p50 ${ms(e.latencyError.p50Ms, 1)}, p95 ${ms(e.latencyError.p95Ms, 1)}, min ${ms(e.latencyError.minMs, 1)}, max ${ms(e.latencyError.maxMs, 1)} (${e.latencyError.matched} cases; target |p95| ≤ 10 ms; server p50/p95 ${ms(e.latencyError.serverP50Ms, 1)} / ${ms(e.latencyError.serverP95Ms, 1)})`
          : "n/a",
      ],
      [
        "  … cases started after the first second",
        e.latencyError?.warm
          ? `p50 ${ms(e.latencyError.warm.p50Ms, 1)}, p95 ${ms(e.latencyError.warm.p95Ms, 1)} (${e.latencyError.warm.matched} cases; the first second is the process warming up: pool connections, Prisma query compilation, JIT)`
          : "n/a",
      ],
      [
        "  … cases started in the first second",
        e.latencyError?.cold
          ? `p50 ${ms(e.latencyError.cold.p50Ms, 1)}, p95 ${ms(e.latencyError.cold.p95Ms, 1)} (${e.latencyError.cold.matched} cases)`
          : "n/a",
      ],
      ["event loop delay p99 / max", `${ms(e.eventLoopDelayP99Ms, 1)} / ${ms(e.eventLoopDelayMaxMs, 1)}`],
      [
        "SQL per case",
        `${e.statementsPerCase.toFixed(1)} statements, ${e.transactionsPerCase.toFixed(2)} transactions, ${e.sqlMsPerCase.toFixed(1)} ms waiting`,
      ],
      [
        "results",
        Object.entries(e.statuses)
          .map(([s, n]) => `${n} ${s}`)
          .join(", "),
      ],
      [
        e.runner === "sleep" ? "runner: calls / max concurrent" : "fake: chat requests / max concurrent",
        `${e.chatRequests} / ${e.fakeMaxConcurrent}`,
      ],
    ]),
  ];
  if (h) {
    lines.push(
      "",
      `History pages: a suite with ${h.runs} runs × ${h.casesPerRun} case results, ${h.listSuites} more suites in the list (inserted in ${(h.insertMs / 1000).toFixed(1)} s); ${h.repeat} calls each in the workspace's row-level scope`,
      "",
    );
    lines.push(
      table(h.queries.map((q) => [q.name, `median ${ms(q.medianMs, 1)}, p90 ${ms(q.p90Ms, 1)}, max ${ms(q.maxMs, 1)} (${q.rows} rows)`])),
    );
    for (const p of h.explain) lines.push("", `EXPLAIN (ANALYZE, BUFFERS): ${p.name}`, ...p.plan.split("\n").map((l) => `    ${l}`));
  }
  const failures = [...e.failures, ...(h?.failures ?? [])];
  lines.push("", correctnessLine(failures, "correctness: all cases passed, each asked exactly once, concurrency within bound"));
  return lines.join("\n");
}
