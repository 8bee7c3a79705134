// The exact samplers behind the few-values bootstrap (lib/comparisons/sampling.ts), and that
// bootstrap itself against the direct resampling it replaces (lib/comparisons/statistics.ts).
import { describe, expect, it } from "vitest";
import { binomial, gamma, normal } from "@/lib/comparisons/sampling";
import { bootstrapLocation, bootstrapMeanOfFewValues, mulberry32 } from "@/lib/comparisons/statistics";

/** Mean and variance of `count` draws. */
function moments(count: number, draw: () => number) {
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < count; i++) {
    const x = draw();
    sum += x;
    squares += x * x;
  }
  const mean = sum / count;
  return { mean, variance: squares / count - mean * mean };
}

describe("samplers", () => {
  it("draws normals and gammas with their textbook moments", () => {
    const random = mulberry32(7);
    const z = moments(40_000, () => normal(random));
    expect(Math.abs(z.mean)).toBeLessThan(0.03);
    expect(z.variance).toBeCloseTo(1, 1);
    for (const shape of [1, 3.5, 40, 5_000]) {
      const g = moments(20_000, () => gamma(shape, random));
      // Gamma(k, 1): mean k, variance k; 6 standard errors of the mean.
      expect(Math.abs(g.mean - shape)).toBeLessThan(6 * Math.sqrt(shape / 20_000));
      expect(g.variance / shape).toBeGreaterThan(0.9);
      expect(g.variance / shape).toBeLessThan(1.1);
    }
  });

  it("draws binomials with mean np and variance np(1 − p), small and large n alike, within 0…n", () => {
    const random = mulberry32(11);
    for (const [n, p] of [
      [10, 0.3],
      [65, 0.5],
      [1_000, 0.3],
      [100_000, 0.01],
      [100_000, 0.7],
      [5_000, 0.999],
    ] as const) {
      const draws: number[] = [];
      const m = moments(8_000, () => {
        const x = binomial(n, p, random);
        draws.push(x);
        return x;
      });
      const variance = n * p * (1 - p);
      expect(draws.every((x) => Number.isInteger(x) && x >= 0 && x <= n)).toBe(true);
      expect(Math.abs(m.mean - n * p)).toBeLessThan(6 * Math.sqrt(variance / 8_000));
      expect(m.variance / variance).toBeGreaterThan(0.9);
      expect(m.variance / variance).toBeLessThan(1.1);
    }
    expect(binomial(1_000, 0, random)).toBe(0);
    expect(binomial(1_000, 1, random)).toBe(1_000);
    expect(binomial(0, 0.5, random)).toBe(0);
  });
});

describe("bootstrap of a mean over few distinct values", () => {
  // 300 per-case pass rates of a three-trial run: 0, ⅓, ⅔ and 1 in uneven shares.
  const rates = Array.from({ length: 300 }, (_, i) => [0, 1 / 3, 2 / 3, 1, 1, 1, 2 / 3][i % 7]!);

  it("gives the interval that resampling every case gives, within the bootstrap's own noise", () => {
    const fast = bootstrapMeanOfFewValues(rates);
    const direct = bootstrapLocation(rates);
    expect(fast.mean).toBe(direct.mean);
    // Both are 2,000-resample estimates of the same quantiles: the mean's sd here is ~0.02, the
    // Monte Carlo error of a 2.5 % quantile ~0.002.
    expect(Math.abs(fast.ci95![0] - direct.ci95![0])).toBeLessThan(0.006);
    expect(Math.abs(fast.ci95![1] - direct.ci95![1])).toBeLessThan(0.006);
    expect(fast.ci95![0]).toBeLessThan(fast.mean!);
    expect(fast.ci95![1]).toBeGreaterThan(fast.mean!);
  });

  it("is the same on every call (fixed seed), a point for one value, and nothing for no data", () => {
    expect(bootstrapMeanOfFewValues(rates)).toEqual(bootstrapMeanOfFewValues(rates));
    expect(bootstrapMeanOfFewValues(rates, { seed: 2 }).ci95).not.toEqual(bootstrapMeanOfFewValues(rates).ci95);
    expect(bootstrapMeanOfFewValues([0.5, 0.5, 0.5])).toEqual({ mean: 0.5, ci95: [0.5, 0.5] });
    expect(bootstrapMeanOfFewValues([])).toEqual({ mean: null, ci95: null });
  });

  it("takes a 100,000-case run: the interval is the normal one a sample that large gives", () => {
    // 70 % of 100,000 cases pass: sd of the mean √(0.7 × 0.3 / 100,000) ≈ 0.00145.
    const passed = Array.from({ length: 100_000 }, (_, i) => (i % 10 < 7 ? 1 : 0));
    const { mean, ci95 } = bootstrapMeanOfFewValues(passed);
    const halfWidth = 1.96 * Math.sqrt((0.7 * 0.3) / 100_000);
    expect(mean).toBeCloseTo(0.7, 12);
    expect(ci95![0]).toBeCloseTo(0.7 - halfWidth, 3);
    expect(ci95![1]).toBeCloseTo(0.7 + halfWidth, 3);
  });
});
