import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { parseArgs } from "../../scripts/bench/args";
import { startBenchFake, type BenchFake } from "../../scripts/bench/fake";
import { benchExecutor, latencyError, makeBenchWorkspace, quantile } from "../../scripts/bench/executor-bench";
import { benchHistory } from "../../scripts/bench/history-bench";
import { formatReport, throughputGoalMet } from "../../scripts/bench/report";
import { hostCpuShares, hostCpuSnapshot } from "../../scripts/bench/host-cpu";
import { benchAb, formatAbReport } from "../../scripts/bench/ab-bench";
import { benchTrials, formatTrialsReport, trialsStorage } from "../../scripts/bench/trials-bench";

// A small version of `npm run bench`, so the benchmark keeps working as the executor changes.
let fake: BenchFake;
beforeAll(async () => {
  fake = await startBenchFake({ latencyMs: 20, separate: false, root: process.cwd() });
});
afterAll(async () => {
  await fake.close();
});

describe("npm run bench", () => {
  it("runs every case exactly once within the concurrency bound and reports the numbers", async () => {
    const ctx = await makeBenchWorkspace();
    const result = await benchExecutor({ ctx, fake, cases: 24, concurrency: 4, latencyMs: 20, endpointCap: 3 });
    expect(result.failures).toEqual([]);
    expect(result.statuses).toEqual({ passed: 24 });
    expect(result.chatRequests).toBe(24);
    // The per-model cap (3) binds before the run's concurrency (4).
    expect(result.fakeMaxConcurrent).toBeLessThanOrEqual(3);
    expect(result.endpointCap).toBe(3);
    expect(result.idealMs).toBe(120);
    expect(result.ratio).toBeGreaterThan(1);
    expect(result.statementsPerCase).toBeGreaterThan(0);
    // Every case is paired with the fake's own time for its question.
    expect(result.latencyError?.matched).toBe(24);
    expect(result.latencyError?.serverP50Ms).toBeGreaterThanOrEqual(19);

    const history = await benchHistory({ ctx, baseUrl: fake.url, runs: 6, casesPerRun: 5, repeat: 2 });
    expect(history.failures).toEqual([]);
    // Every query that reads the suite's history sees all 6 runs (the windows are larger).
    const rows = Object.fromEntries(history.queries.map((q) => [q.name, q.rows]));
    expect(rows).toMatchObject({
      "sql: trend (last 50 finished runs)": 6,
      "sql: trend (last 500 finished runs)": 6,
      "sql: runs page (20 rows)": 6,
      "service: getSuiteAnalytics (defaults)": 6,
      "service: listSuiteRunsPage (20)": 6,
      "loader: suite runs & trends page": 6,
      "loader: suite page (test cases)": 5,
    });

    const report = formatReport(result, history, { database: "test", loadBefore: "0", loadAfter: "0" });
    // The throughput goal is set for 200 ms cases at concurrency 50 only: this run (20 ms at 4) has none.
    expect(report).toMatch(/ratio to ideal\s+\d+\.\d{3}\s+\(target ≤ 1\.2: target (met|missed)\)/);
    const atGoalShape = { ...result, latencyMs: 200, concurrency: 50, ratio: 1.07 };
    expect(formatReport(atGoalShape, null, { database: "test", loadBefore: "0", loadAfter: "0" })).toMatch(
      /ratio to ideal\s+1\.070\s+\(target ≤ 1\.2: target met; throughput goal ≤ 1\.08: met\)/,
    );
    expect(throughputGoalMet({ ...atGoalShape, cases: 10_000 })).toBe(false);
    expect(throughputGoalMet({ ...atGoalShape, cases: 100_000, ratio: 1.05 })).toBe(true);
    expect(throughputGoalMet(result)).toBeNull();
    // On Linux the host's CPU shares over the run are read from /proc/stat and printed.
    expect(result.hostCpu).not.toBeNull();
    expect(result.hostCpu!.busyPct).toBeGreaterThan(0);
    expect(report).toMatch(/host CPUs during the run\s+\d+ % busy, \d+\.\d % taken by other tenants \(steal\)/);
    expect(report).toContain("correctness: all cases passed");
    expect(report).toMatch(/recorded − server latency\s+p50 -?\d+\.\d ms, p95/);
  });

  it("A/B mode: compares two arms through the comparison engine and measures the latency-diff error", async () => {
    const ctx = await makeBenchWorkspace();
    const result = await benchAb({
      ctx,
      fake,
      cases: 12,
      concurrency: 4,
      baselineLatencyMs: 20,
      variantLatencyMs: 50,
      ordering: "sequential",
      resetWindowMs: 10,
      warmupCases: 4,
    });
    expect(result.failures).toEqual([]);
    expect(result).toMatchObject({ status: "completed", pairs: 12, comparablePairs: 12, warmupCases: 4 });
    // 3 waves of (20 + 10 + 50) ms.
    expect(result.idealMs).toBe(240);
    expect(result.diffErrorVsNominal).not.toBeNull();
    expect(result.diffErrorVsServer).not.toBeNull();
    // The recorded diff is the variant's 30 ms extra, give or take timing noise.
    expect(Math.abs(result.medianDiffMs! - 30)).toBeLessThan(15);
    const report = formatAbReport(result, { database: "test", loadBefore: "0", loadAfter: "0" });
    expect(report).toMatch(/diff error vs nominal 30 ms\s+p50 -?\d+\.\d ms, \|p95\|/);
    await fake.setRules([]);
  });

  it("trials mode: stores every trial of every case exactly once, in trial-major positions", async () => {
    const ctx = await makeBenchWorkspace();
    const result = await benchTrials({ ctx, fake, cases: 10, trials: 3, concurrency: 4, latencyMs: 20, endpointCap: null });
    expect(result.failures).toEqual([]);
    expect(result).toMatchObject({ runStatus: "completed", executions: 30, totalCases: 30, passedCases: 30, chatRequests: 30 });
    expect(result.storage).toMatchObject({ results: 30, duplicated: 0, missing: 0, outOfRange: 0, misplaced: 0, notPassed: 0 });
    expect(result.questionsNotAskedTrialsTimes).toBe(0);
    expect(result.fakeMaxConcurrent).toBeLessThanOrEqual(4);
    // The bound counts trial executions: ⌈30 ÷ 4⌉ waves of 20 ms.
    expect(result.idealMs).toBe(160);
    expect(result.ratio).toBeGreaterThan(1);
    expect(result.cpuPerExecutionMs.bench).toBeGreaterThan(0);
    const report = formatTrialsReport(result, { database: "test", loadBefore: "0", loadAfter: "0" });
    expect(report).toMatch(/ratio to ideal\s+\d+\.\d{3}\s+\(target ≤ 1\.2: target (met|missed)\)/);
    expect(report).toContain("0 duplicated, 0 missing");
    expect(report).toContain("correctness: every trial stored exactly once");

    // The SQL check sees a trial stored under another trial's number: one pair doubled, one missing, one misplaced.
    const moved = await db.caseResult.findFirstOrThrow({ where: { runId: result.runId, repetition: 2 }, orderBy: { position: "asc" } });
    await db.caseResult.update({ where: { id: moved.id }, data: { repetition: 1 } });
    expect(await trialsStorage(result.runId, result.suiteId, 10, 3)).toMatchObject({
      results: 30,
      duplicated: 1,
      missing: 1,
      misplaced: 1,
    });
  });

  it("measures the executor alone with the sleeping runner, without calling the model", async () => {
    const ctx = await makeBenchWorkspace();
    const before = (await fake.stats()).chatRequests;
    const result = await benchExecutor({ ctx, fake, cases: 10, concurrency: 5, latencyMs: 10, endpointCap: null, runner: "sleep" });
    expect(result.failures).toEqual([]);
    expect(result.chatRequests).toBe(10);
    expect((await fake.stats()).chatRequests).toBe(before);
  });

  it("shares the host's CPU time between busy, idle and stolen from two /proc/stat snapshots", () => {
    expect(hostCpuShares({ busy: 100, idle: 300, steal: 10 }, { busy: 160, idle: 320, steal: 30 })).toEqual({ stealPct: 20, busyPct: 60 });
    expect(hostCpuShares({ busy: 100, idle: 300, steal: 10 }, { busy: 100, idle: 300, steal: 10 })).toBeNull();
    expect(hostCpuShares(null, { busy: 1, idle: 1, steal: 0 })).toBeNull();
    const now = hostCpuSnapshot();
    expect(now).not.toBeNull();
    expect(now!.busy + now!.idle).toBeGreaterThan(0);
  });

  it("pairs recorded latencies with the server's times by question", () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(quantile([1, 2, 3, 4], 0.95)).toBe(4);
    const server = new Map([
      ["a", 200.5],
      ["b", 201],
    ]);
    const error = latencyError(
      [
        { question: "a", latencyMs: 202, startedMs: 1_500 },
        { question: "b", latencyMs: 211, startedMs: 10 },
        { question: "c", latencyMs: 500 },
      ],
      server,
    );
    expect(error).toMatchObject({ matched: 2, p50Ms: 1.5, p95Ms: 10, minMs: 1.5, maxMs: 10 });
    expect(error?.warm).toMatchObject({ afterMs: 1_000, matched: 1, p50Ms: 1.5, p95Ms: 1.5 });
    expect(latencyError([], server)).toBeNull();
  });

  it("parses flags and rejects unknown ones", () => {
    expect(parseArgs(["--cases", "10", "--concurrency=3", "--in-process-fake", "--endpoint-cap", "7", "--runner", "sleep"])).toMatchObject({
      cases: 10,
      concurrency: 3,
      separateFake: false,
      endpointCap: 7,
      runner: "sleep",
    });
    expect(() => parseArgs(["--cases", "0"])).toThrow(/--cases/);
    expect(() => parseArgs(["--bogus"])).toThrow(/Unknown option/);
    expect(parseArgs(["--ab"])).toMatchObject({
      ab: true,
      cases: 500,
      latencyMs: 200,
      variantLatencyMs: 260,
      ordering: "sequential",
      warmupCases: 100,
    });
    expect(parseArgs(["--ab", "--cases", "20", "--ordering", "concurrent", "--warmup", "0"])).toMatchObject({
      cases: 20,
      ordering: "concurrent",
      warmupCases: 0,
    });
    expect(() => parseArgs(["--ab", "--variant-latency", "100"])).toThrow(/--variant-latency/);
    expect(() => parseArgs(["--ordering", "sideways"])).toThrow(/--ordering/);
    expect(parseArgs(["--trials", "5"])).toMatchObject({ trials: 5, cases: 1000, concurrency: 50, latencyMs: 200 });
    expect(parseArgs([]).trials).toBeNull();
    expect(() => parseArgs(["--trials", "0"])).toThrow(/--trials/);
    expect(() => parseArgs(["--trials", "21"])).toThrow(/--trials/);
    expect(() => parseArgs(["--trials", "3", "--ab"])).toThrow(/separate modes/);
    expect(parseArgs(["--rate-limit", "rpm=600,tpm=60000"])).toMatchObject({
      rateLimit: { rpm: 600, tpm: 60000 },
      seconds: 300,
      learned: false,
      promptfoo: null,
    });
    expect(parseArgs(["--rate-limit", "rpm=60", "--learned", "--seconds", "30", "--promptfoo", "/opt/pf/bin/promptfoo"])).toMatchObject({
      rateLimit: { rpm: 60, tpm: null },
      seconds: 30,
      learned: true,
      promptfoo: "/opt/pf/bin/promptfoo",
    });
    expect(() => parseArgs(["--rate-limit", "rpm=ten"])).toThrow(/--rate-limit/);
    expect(() => parseArgs(["--rate-limit", "rpm=60", "--promptfoo"])).toThrow(/--promptfoo takes/);
    expect(() => parseArgs(["--promptfoo", "/opt/pf/bin/promptfoo"])).toThrow(/--promptfoo belongs to --rate-limit/);
    expect(() => parseArgs(["--learned"])).toThrow(/--learned belongs to --rate-limit/);
  });
});
