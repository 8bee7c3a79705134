import { describe, expect, it } from "vitest";
import {
  bootstrapLocation,
  mcnemarExact,
  median,
  mulberry32,
  normalUpperTail,
  quantile,
  signedRankCdf,
  wilcoxonSignedRank,
} from "@/lib/comparisons/statistics";

const paired = (x: number[], y: number[]) => x.map((v, i) => v - y[i]!);

describe("Wilcoxon signed-rank test", () => {
  // R's ?wilcox.test example, Hollander & Wolfe (1973) p. 29: Hamilton depression scale factor IV
  // before (x) and after (y) tranquilizer. R: wilcox.test(x, y, paired = TRUE) → V = 40, p-value = 0.03906.
  const x = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
  const y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];

  it("matches R's exact result on the Hollander & Wolfe depression data", () => {
    const r = wilcoxonSignedRank(paired(x, y));
    expect(r).toMatchObject({ method: "wilcoxon_signed_rank", statistic: 40, n: 9, zeros: 0, exact: true });
    expect(r.p_value).toBeCloseTo(0.0390625, 12); // 20 / 512, printed by R as 0.03906
  });

  it("is symmetric: swapping the arms gives V' = n(n+1)/2 − V and the same p-value", () => {
    const r = wilcoxonSignedRank(paired(y, x));
    expect(r.statistic).toBe(45 - 40);
    expect(r.p_value).toBeCloseTo(0.0390625, 12);
  });

  it("uses the normal approximation with tie and continuity correction when |d| ties (integer data)", () => {
    // d = 1 1 2 2 −1 3 3 0 4: the zero is dropped (n = 8); |d| ranks 2 2 4.5 4.5 2 6.5 6.5 8, V = 34.
    // By hand: E[V] = 8·9/4 = 18; Var = 8·9·17/24 − Σ(t³ − t)/48 = 51 − (24 + 6 + 6)/48 = 50.25;
    // z = (34 − 18 − 0.5)/√50.25 = 2.18657; p = 2·(1 − Φ(z)) = 0.0287738 (Φ from @stdlib's normal CDF;
    // @stdlib/stats-wilcoxon 0.2.3, a port of R's wilcox.test, prints V = 34, p = 0.02877382641960513).
    const r = wilcoxonSignedRank([1, 1, 2, 2, -1, 3, 3, 0, 4]);
    expect(r).toMatchObject({ statistic: 34, n: 8, zeros: 1, exact: false });
    expect(r.p_value).toBeCloseTo(0.02877382641960513, 10);
  });

  it("matches Wikipedia's worked example (10 pairs, one zero, one tie: W = 9, so V = 27)", () => {
    const before = [125, 115, 130, 140, 140, 115, 140, 125, 140, 135];
    const after = [110, 122, 125, 120, 140, 124, 123, 137, 135, 145];
    const r = wilcoxonSignedRank(paired(before, after));
    // W = Σ sgn·rank = V − (n(n+1)/2 − V) = 2V − 45 = 9.
    expect(r).toMatchObject({ statistic: 27, n: 9, zeros: 1, exact: false });
    // By hand: z = (27 − 22.5 − 0.5)/√(71.25 − 6/48) = 0.474295; p = 0.6352893 (same two sources as above).
    expect(r.p_value).toBeCloseTo(0.6352893188352069, 10);
  });

  it("switches to the normal approximation at n = 50, as R does", () => {
    const d49 = Array.from({ length: 49 }, (_, i) => (i % 3 === 0 ? -(i + 1) : i + 1));
    const d50 = Array.from({ length: 50 }, (_, i) => (i % 3 === 0 ? -(i + 1) : i + 1));
    expect(wilcoxonSignedRank(d49).exact).toBe(true);
    expect(wilcoxonSignedRank(d50).exact).toBe(false);
  });

  it("knows the smallest exact p-values of small samples (why a verdict needs 6 pairs)", () => {
    expect(wilcoxonSignedRank([1, 2, 3, 4, 5]).p_value).toBe(2 / 32);
    expect(wilcoxonSignedRank([1, 2, 3, 4, 5, 6]).p_value).toBe(2 / 64);
  });

  it("never exceeds 1", () => {
    // V = 3 = n(n+1)/4: 2 · P(V ≤ 3) = 2 · 5/8 would be 1.25.
    expect(wilcoxonSignedRank([1, 2, -3]).p_value).toBe(1);
  });

  it("returns null, not NaN, when there is nothing to test", () => {
    expect(wilcoxonSignedRank([])).toMatchObject({ p_value: null, statistic: null, n: 0, zeros: 0 });
    expect(wilcoxonSignedRank([0, 0, 0])).toMatchObject({ p_value: null, statistic: null, n: 0, zeros: 3 });
  });

  it("handles a single non-zero difference", () => {
    expect(wilcoxonSignedRank([5])).toMatchObject({ statistic: 1, n: 1, exact: true, p_value: 1 });
  });

  it("has an exact signed-rank distribution (R's psignrank)", () => {
    expect(signedRankCdf(0, 9)).toBe(1 / 512);
    expect(signedRankCdf(5, 9)).toBeCloseTo(10 / 512, 15); // psignrank(5, 9) = 0.01953125
    expect(signedRankCdf(45, 9)).toBe(1);
    expect(signedRankCdf(-1, 9)).toBe(0);
  });
});

describe("standard normal upper tail", () => {
  it("matches tabulated values", () => {
    expect(normalUpperTail(0)).toBeCloseTo(0.5, 15);
    expect(normalUpperTail(1.96)).toBeCloseTo(0.0249978951482204, 14);
    expect(normalUpperTail(-1.96)).toBeCloseTo(0.9750021048517796, 14);
    expect(normalUpperTail(3)).toBeCloseTo(0.0013498980316301, 15);
    // Deep tail keeps relative precision (1 − Φ would give 0).
    expect(normalUpperTail(8.5) / 9.479534822203318e-18).toBeCloseTo(1, 7);
  });
});

describe("McNemar's exact test", () => {
  it("matches the binomial reference b = 2, c = 8 → p = 0.1094", () => {
    // binom.test(2, 10, 0.5) in R: p-value = 0.1094 (= 2 · 56/1024).
    const r = mcnemarExact(2, 8);
    expect(r).toMatchObject({ method: "mcnemar_exact", b: 2, c: 8 });
    expect(r.p_value).toBeCloseTo(0.109375, 12);
    expect(mcnemarExact(8, 2).p_value).toBeCloseTo(0.109375, 12);
  });

  it("gives 1 for balanced flips and null without any flip", () => {
    expect(mcnemarExact(5, 5).p_value).toBe(1);
    expect(mcnemarExact(0, 0).p_value).toBeNull();
  });

  it("gives small, finite p-values for many one-sided flips", () => {
    expect(mcnemarExact(0, 10).p_value).toBeCloseTo(2 / 1024, 15);
    const big = mcnemarExact(1500, 1600).p_value!;
    expect(big).toBeGreaterThan(0.07);
    expect(big).toBeLessThan(0.08);
    expect(mcnemarExact(3, 5000).p_value).toBeGreaterThanOrEqual(0);
  });
});

describe("quantiles", () => {
  it("interpolates like R's type 7", () => {
    expect(quantile([1, 2, 3, 4], 0.95)).toBeCloseTo(3.85, 12);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });
});

describe("percentile bootstrap", () => {
  const sample = (n: number, seed: number) => {
    const random = mulberry32(seed);
    return Array.from({ length: n }, () => 50 + 40 * (random() - 0.5));
  };

  it("is deterministic for a seed and changes with the seed", () => {
    const xs = sample(40, 1);
    const a = bootstrapLocation(xs, { seed: 7 });
    expect(bootstrapLocation(xs, { seed: 7 })).toEqual(a);
    expect(bootstrapLocation(xs, { seed: 8 }).ci95).not.toEqual(a.ci95);
    expect(bootstrapLocation(xs)).toEqual(bootstrapLocation(xs, { resamples: 2000 }));
  });

  it("brackets the mean and the median", () => {
    const r = bootstrapLocation(sample(60, 2));
    expect(r.n).toBe(60);
    expect(r.ci95![0]).toBeLessThan(r.mean!);
    expect(r.ci95![1]).toBeGreaterThan(r.mean!);
    expect(r.median_ci95![0]).toBeLessThanOrEqual(r.median!);
    expect(r.median_ci95![1]).toBeGreaterThanOrEqual(r.median!);
  });

  it("narrows as n grows (about 1/√n)", () => {
    const width = (n: number) => {
      const [lo, hi] = bootstrapLocation(sample(n, 3)).ci95!;
      return hi - lo;
    };
    const w20 = width(20);
    const w500 = width(500);
    expect(w500).toBeLessThan(w20 / 3); // √(500/20) = 5
  });

  it("covers the true mean at roughly the nominal rate", () => {
    let covered = 0;
    for (let s = 0; s < 100; s++) {
      const [lo, hi] = bootstrapLocation(sample(30, 100 + s), { resamples: 500 }).ci95!;
      if (lo <= 50 && 50 <= hi) covered++;
    }
    expect(covered).toBeGreaterThanOrEqual(85);
  });

  it("gives null without data and a zero-width interval for one value or constant data", () => {
    expect(bootstrapLocation([])).toEqual({ n: 0, mean: null, median: null, ci95: null, median_ci95: null });
    expect(bootstrapLocation([4]).ci95).toEqual([4, 4]);
    expect(bootstrapLocation([0, 0, 0])).toMatchObject({ mean: 0, median: 0, ci95: [0, 0], median_ci95: [0, 0] });
  });
});

describe("mulberry32", () => {
  it("reproduces its reference stream", () => {
    const random = mulberry32(42);
    const first = [random(), random(), random()];
    const again = mulberry32(42);
    expect([again(), again(), again()]).toEqual(first);
    for (const v of first) expect(v).toBeGreaterThanOrEqual(0);
    for (const v of first) expect(v).toBeLessThan(1);
  });
});
