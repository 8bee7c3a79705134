import { describe, expect, it } from "vitest";
import { summarize } from "@/lib/comparisons/summary";
import { comparisonVerdict, formatP } from "@/lib/comparisons/verdict";
import { failedCall, execution, makePairs } from "./pairs";

const verdict = (...args: Parameters<typeof makePairs>) => comparisonVerdict(summarize(makePairs(...args)));

describe("comparisonVerdict", () => {
  it("names a significant slowdown and token increase, as the issue's example", () => {
    expect(verdict({ n: 30, latencyShiftMs: 212, tokenFactor: 1.14 })).toMatch(
      /^Variant is 21\d ms slower \(95 % CI 2\d\d–2\d\d, p < 0\.001\) and uses 14 % more tokens; pass rate unchanged\.$/,
    );
  });

  it("names a significant speed-up with the interval as magnitudes", () => {
    const s = summarize(makePairs({ n: 30, latencyShiftMs: -80 }));
    const [lo, hi] = s.diffs.latency_diff_ms.median_ci95!;
    expect(lo).toBeLessThan(hi);
    expect(hi).toBeLessThan(0);
    expect(comparisonVerdict(s)).toBe(
      `Variant is ${Math.round(-s.diffs.latency_diff_ms.median!)} ms faster (95 % CI ${Math.round(-hi)}–${Math.round(-lo)}, p < 0.001) with no token difference; pass rate unchanged.`,
    );
  });

  it("names a token saving with no significant latency difference", () => {
    expect(verdict({ n: 20, tokenFactor: 0.9, noiseMs: 20 })).toMatch(
      /^Variant uses 10 % fewer tokens with no significant latency difference \(p = 0\.\d\d\); pass rate unchanged\.$/,
    );
  });

  it("says no significant difference when the shift is lost in the noise", () => {
    const s = summarize(makePairs({ n: 25, latencyShiftMs: 1, noiseMs: 50, seed: 3 }));
    expect(s.tests.latency.p_value).toBeGreaterThan(0.05);
    expect(comparisonVerdict(s)).toMatch(/^No significant difference in latency \(p = 0\.\d\d\) or tokens; pass rate unchanged\.$/);
  });

  it("does not call a significant p-value significant when the interval contains 0", () => {
    // The Wilcoxon test (ranks) and the bootstrap interval of the median can disagree on skewed
    // data; both must agree before the sentence names a difference.
    const s = summarize(makePairs({ n: 30, latencyShiftMs: 40, noiseMs: 10 }));
    s.diffs.latency_diff_ms.median_ci95 = [-5, 80];
    expect(comparisonVerdict(s)).toMatch(/^No significant difference in latency \(p < 0\.001\) or tokens;/);
  });

  it("reports a significant pass-rate drop", () => {
    const sentence = verdict({ n: 20, statuses: (i) => (i < 10 ? ["passed", "failed"] : ["passed", "passed"]) });
    expect(sentence).toMatch(/; pass rate fell from 100 % to 50 % \(p = 0\.002\)\.$/);
  });

  it("reports a pass-rate rise", () => {
    const sentence = verdict({ n: 20, statuses: (i) => (i < 9 ? ["failed", "passed"] : ["passed", "passed"]) });
    expect(sentence).toMatch(/; pass rate rose from 55 % to 100 % \(p = 0\.004\)\.$/);
  });

  it("reports a pass-rate change that is not significant", () => {
    const sentence = verdict({
      n: 20,
      statuses: (i) => (i < 3 ? ["passed", "failed"] : i === 3 ? ["failed", "passed"] : ["passed", "passed"]),
    });
    expect(sentence).toMatch(/; pass rate 95 % vs 85 %, not a significant change \(p = 0\.63\)\.$/);
  });

  it("gives no verdict below 6 comparable pairs, only the raw numbers", () => {
    expect(verdict({ n: 4, latencyShiftMs: 300, tokenFactor: 1.5, noiseMs: 0 })).toBe(
      "Too few comparable pairs (n = 4) for a verdict: median latency +300 ms, tokens +50 %; pass rate unchanged.",
    );
  });

  it("counts the pairs left out for errors (errors count against an arm's pass rate, as in a run)", () => {
    const pairs = makePairs({ n: 18, latencyShiftMs: 100, tokenFactor: 1.14 });
    pairs.push({ baseline: execution(), variant: failedCall() }, { baseline: failedCall(), variant: failedCall() });
    expect(comparisonVerdict(summarize(pairs))).toMatch(
      /and uses 14 % more tokens; pass rate 95 % vs 90 %, not a significant change; 2 of 20 pairs left out \(error or skipped\)\.$/,
    );
  });

  it("handles no pairs and no comparable pairs", () => {
    expect(comparisonVerdict(summarize([]))).toBe("No pairs have completed yet.");
    expect(comparisonVerdict(summarize([{ baseline: failedCall(), variant: execution() }]))).toBe(
      "No pair succeeded in both arms yet, so there is nothing to compare; 1 of 1 pairs left out (error or skipped).",
    );
  });
});

describe("formatP", () => {
  it.each([
    [0.00001, "p < 0.001"],
    [0.0009, "p < 0.001"],
    [0.004, "p = 0.004"],
    [0.03, "p = 0.03"],
    [0.0312, "p = 0.03"],
    [0.0499, "p = 0.049"],
    [0.05, "p = 0.05"],
    [0.41, "p = 0.41"],
    [1, "p = 1"],
  ])("%f → %s", (p, text) => {
    expect(formatP(p)).toBe(text);
  });
});
