import { describe, expect, it } from "vitest";
import { summarize } from "@/lib/comparisons/summary";
import { execution, failedCall, makePairs } from "./pairs";

/** Every number anywhere in the summary, to prove none is NaN or infinite. */
function numbers(value: unknown): number[] {
  if (typeof value === "number") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(numbers);
  return [];
}

describe("summarize", () => {
  it("has the shape the comparison API's summary needs", () => {
    const s = summarize(makePairs({ n: 12, latencyShiftMs: 50, tokenFactor: 1.2 }));
    expect(Object.keys(s.diffs)).toEqual(["token_overhead", "token_overhead_pct", "latency_diff_ms", "response_length_ratio"]);
    for (const d of Object.values(s.diffs))
      expect(d).toEqual(expect.objectContaining({ mean: expect.any(Number), median: expect.any(Number) }));
    expect(s.diffs.latency_diff_ms.ci95).toHaveLength(2);
    expect(s.verdict_changes).toEqual({ same: 12, pass_to_fail: 0, fail_to_pass: 0, error: 0 });
    expect(s.tests.latency.method).toBe("wilcoxon_signed_rank");
    expect(s.tests.tokens.method).toBe("wilcoxon_signed_rank");
    expect(s.tests.pass_fail.method).toBe("mcnemar_exact");
    expect(s.baseline).toEqual({
      pass_rate: 100,
      passed: 12,
      failed: 0,
      errors: 0,
      skipped: 0,
      tokens: { prompt: 960, completion: 240, total: 1200, mean_total: 100 },
      latency_ms: { mean: expect.any(Number), p50: expect.any(Number), p95: expect.any(Number) },
    });
    expect(s.variant.tokens).toEqual({ prompt: 1200, completion: 240, total: 1440, mean_total: 120 });
    expect(s.diffs.token_overhead_pct).toMatchObject({ mean: 20, median: 20, ci95: [20, 20] });
    expect(s.success_rate).toBe(100);
  });

  it("computes arm latency mean, p50 and p95 (type 7) over successful executions", () => {
    const latencies = [100, 200, 300, 400];
    const pairs = latencies.map((ms) => ({ baseline: execution({ latency_ms: ms }), variant: execution({ latency_ms: ms + 10 }) }));
    pairs.push({ baseline: failedCall(), variant: execution({ latency_ms: 999 }) });
    const s = summarize(pairs);
    expect(s.baseline.latency_ms).toEqual({ mean: 250, p50: 250, p95: 385 });
    expect(s.variant.latency_ms.mean).toBeCloseTo((110 + 210 + 310 + 410 + 999) / 5, 10);
    expect(s.diffs.latency_diff_ms).toMatchObject({ n: 4, mean: 10, median: 10, ci95: [10, 10] });
  });

  it("leaves pairs with an error or skip out of the diffs and tests, and counts them", () => {
    const pairs = makePairs({ n: 10, latencyShiftMs: 30 });
    pairs.push({ baseline: failedCall(), variant: execution() });
    pairs.push({ baseline: execution(), variant: execution({ status: "skipped" }) });
    const s = summarize(pairs);
    expect(s.pairs).toBe(12);
    expect(s.comparable_pairs).toBe(10);
    expect(s.verdict_changes.error).toBe(2);
    expect(s.success_rate).toBe(83.3);
    expect(s.baseline).toMatchObject({ passed: 11, errors: 1, pass_rate: 91.7 });
    expect(s.variant).toMatchObject({ passed: 11, skipped: 1, pass_rate: 100 });
    expect(s.diffs.latency_diff_ms.n).toBe(10);
    expect(s.tests.latency.n).toBe(10);
    expect(s.tests.latency.exact).toBe(true);
    expect(s.tests.latency.p_value).toBeCloseTo(2 / 1024, 12); // every variant slower: V = 55 of 55
  });

  it("keeps a pair whose judge failed in the diffs (its agents answered) and out of the pass/fail test only", () => {
    const pairs = makePairs({ n: 6, latencyShiftMs: 30 });
    const judged = execution({ latency_ms: 260, status: "error", error: null, evaluation_error: "Outcome judge: garbage" });
    pairs.push({ baseline: execution({ latency_ms: 200 }), variant: judged });
    const s = summarize(pairs);
    expect(s.comparable_pairs).toBe(7);
    expect(s.success_rate).toBe(100);
    expect(s.diffs.latency_diff_ms.n).toBe(7);
    expect(s.tests.latency.n).toBe(7);
    expect(s.verdict_changes).toEqual({ same: 6, pass_to_fail: 0, fail_to_pass: 0, error: 1 });
    expect(s.variant).toMatchObject({ passed: 6, errors: 1 });
    // Its latency and tokens are the variant's too.
    expect(s.variant.latency_ms.mean).toBeCloseTo((pairs.slice(0, 6).reduce((a, p) => a + p.variant.latency_ms, 0) + 260) / 7, 10);
    expect(s.variant.tokens.mean_total).toBe(100);
  });

  it("feeds pass/fail flips into McNemar's test", () => {
    const s = summarize(
      makePairs({ n: 20, statuses: (i) => (i < 8 ? ["failed", "passed"] : i < 10 ? ["passed", "failed"] : ["passed", "passed"]) }),
    );
    expect(s.verdict_changes).toEqual({ same: 10, pass_to_fail: 2, fail_to_pass: 8, error: 0 });
    expect(s.tests.pass_fail).toMatchObject({ b: 2, c: 8 });
    expect(s.tests.pass_fail.p_value).toBeCloseTo(0.109375, 12);
    expect(s.baseline.pass_rate).toBe(60);
    expect(s.variant.pass_rate).toBe(90);
  });

  it("is deterministic", () => {
    const pairs = makePairs({ n: 40, latencyShiftMs: 5, noiseMs: 30 });
    expect(summarize(pairs)).toEqual(summarize(pairs));
  });

  it("gives defined results for no pairs: nulls, never NaN", () => {
    const s = summarize([]);
    expect(numbers(s).length).toBeGreaterThan(0);
    expect(numbers(s).every(Number.isFinite)).toBe(true);
    expect(s.success_rate).toBeNull();
    expect(s.baseline).toMatchObject({
      pass_rate: null,
      tokens: { total: 0, mean_total: null },
      latency_ms: { mean: null, p50: null, p95: null },
    });
    expect(s.diffs.latency_diff_ms).toEqual({ n: 0, mean: null, median: null, ci95: null, median_ci95: null });
    expect(s.tests.latency).toMatchObject({ p_value: null, n: 0 });
    expect(s.tests.pass_fail.p_value).toBeNull();
  });

  it("gives defined results when every difference is zero", () => {
    const pair = { baseline: execution(), variant: execution() };
    const s = summarize([pair, pair, pair]);
    expect(numbers(s).length).toBeGreaterThan(0);
    expect(numbers(s).every(Number.isFinite)).toBe(true);
    expect(s.tests.latency).toMatchObject({ p_value: null, n: 0, zeros: 3 });
    expect(s.tests.tokens.p_value).toBeNull();
    expect(s.diffs.latency_diff_ms).toMatchObject({ mean: 0, ci95: [0, 0] });
    expect(s.diffs.response_length_ratio).toMatchObject({ mean: 1, ci95: [1, 1] });
  });

  it("gives defined results when every pair errored", () => {
    const s = summarize([{ baseline: failedCall(), variant: failedCall() }]);
    expect(numbers(s).length).toBeGreaterThan(0);
    expect(numbers(s).every(Number.isFinite)).toBe(true);
    expect(s).toMatchObject({ comparable_pairs: 0, success_rate: 0, verdict_changes: { error: 1 } });
    expect(s.baseline.pass_rate).toBe(0);
  });
});
