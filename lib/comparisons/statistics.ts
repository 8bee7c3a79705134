/**
 * The statistics behind a comparison's verdict, as pure functions over plain number arrays:
 * a seeded percentile bootstrap for confidence intervals, the Wilcoxon signed-rank test for
 * paired latency/token differences, McNemar's exact test for pass/fail flips, and the
 * order statistics (median, p95) the summary shows.
 *
 * Written here rather than imported: the well-kept npm package with the signed-rank test in both
 * forms (exact, tie-corrected normal) is @stdlib/stats-wilcoxon, which with @stdlib/stats-binomial-test
 * installs 323 packages (36 MB, CommonJS only) for ~150 lines of textbook code; simple-statistics
 * and jstat have neither test. Each function follows R's `wilcox.test` / `binom.test` / `quantile`
 * (type 7), and tests/comparisons/statistics.test.ts checks them against R's published values.
 * During development they were also cross-checked against @stdlib 0.2.x on ~3,000 random samples
 * (p-values equal to 1e-15), which found two @stdlib departures from R that we do not copy: it
 * reports two-sided p-values above 1 (no min(2p, 1)) and uses the exact distribution up to n = 50
 * where R stops at n < 50.
 *
 * No result is ever NaN: what cannot be computed (no data, all differences zero) is null.
 */

import { binomial } from "./sampling";

/** mulberry32: a tiny, well-known 32-bit PRNG. Same seed → same stream, on every platform. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function mean(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
}

/** Quantile of an ascending array by linear interpolation (R's type 7, numpy's default). */
export function quantileSorted(sorted: readonly number[], p: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

export function quantile(xs: readonly number[], p: number): number | null {
  return quantileSorted(ascending(xs), p);
}

export function median(xs: readonly number[]): number | null {
  return quantile(xs, 0.5);
}

function ascending(xs: readonly number[]): number[] {
  return [...xs].sort((a, b) => a - b);
}

// ── Bootstrap ────────────────────────────────────────────────────────────────────────────────

export const DEFAULT_BOOTSTRAP_SEED = 20260301;
export const DEFAULT_RESAMPLES = 2000;

export interface BootstrapOptions {
  seed?: number;
  resamples?: number;
  /** Confidence level, default 0.95. */
  level?: number;
}

export type Interval = [number, number];

export interface LocationEstimate {
  n: number;
  mean: number | null;
  median: number | null;
  /** Percentile-bootstrap interval of the mean; null without data. */
  ci95: Interval | null;
  /** Percentile-bootstrap interval of the median (same resamples); null without data. */
  median_ci95: Interval | null;
}

/**
 * Mean and median of `xs` with percentile-bootstrap intervals: `resamples` samples of size n
 * drawn with replacement (indices from mulberry32(seed)), the statistic of each, and the
 * (1 − level)/2 and (1 + level)/2 type-7 quantiles of those. A fresh generator per call keeps an
 * interval independent of what was computed before it. One value gives a zero-width interval.
 *
 * A resample is kept as how often it drew each value of the sorted data, so its median is a walk
 * over those counts rather than a sort: O(n) per resample (10,000 pairs: 1.2 s for the four diffs
 * of a summary instead of 5 s).
 */
export function bootstrapLocation(xs: readonly number[], options: BootstrapOptions = {}): LocationEstimate {
  const n = xs.length;
  if (n === 0) return { n, mean: null, median: null, ci95: null, median_ci95: null };
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? 0.95;
  const random = mulberry32(options.seed ?? DEFAULT_BOOTSTRAP_SEED);
  const sorted = ascending(xs);
  const lowMiddle = Math.floor((n - 1) / 2); // 0-based ranks of the median's one or two values
  const highMiddle = Math.ceil((n - 1) / 2);
  const means = new Float64Array(resamples);
  const medians = new Float64Array(resamples);
  const draws = new Uint32Array(n);
  for (let r = 0; r < resamples; r++) {
    draws.fill(0);
    for (let i = 0; i < n; i++) draws[Math.floor(random() * n)]!++;
    let sum = 0;
    let seen = 0;
    let low = 0;
    let high = 0;
    for (let j = 0; j < n; j++) {
      const count = draws[j]!;
      if (count === 0) continue;
      const x = sorted[j]!;
      sum += count * x;
      if (seen <= lowMiddle && lowMiddle < seen + count) low = x;
      if (seen <= highMiddle && highMiddle < seen + count) high = x;
      seen += count;
    }
    means[r] = sum / n;
    medians[r] = (low + high) / 2;
  }
  const interval = (stats: Float64Array): Interval => {
    const sorted = Array.from(stats.sort());
    return [quantileSorted(sorted, (1 - level) / 2)!, quantileSorted(sorted, (1 + level) / 2)!];
  };
  return { n, mean: mean(xs), median: median(xs), ci95: interval(means), median_ci95: interval(medians) };
}

/**
 * The percentile-bootstrap interval of the mean of `xs` when they take few distinct values (a
 * run's per-case pass rates take at most trials + 1), with the same resamples, seed and level as
 * `bootstrapLocation`. Drawing n values with replacement only decides how often each distinct
 * value is drawn (multinomial counts), so each resample draws those counts, value by value, as
 * binomials of the draws left (exact: ./sampling.ts). A resample costs O(values × log n)
 * uniforms instead of n: a 100,000-case run's interval takes milliseconds, not the 6.7 s its
 * finalize spent with the event loop blocked and the run row locked.
 */
export function bootstrapMeanOfFewValues(
  xs: readonly number[],
  options: BootstrapOptions = {},
): { mean: number | null; ci95: Interval | null } {
  const n = xs.length;
  if (n === 0) return { mean: null, ci95: null };
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? 0.95;
  const random = mulberry32(options.seed ?? DEFAULT_BOOTSTRAP_SEED);
  const tally = new Map<number, number>();
  for (const x of xs) tally.set(x, (tally.get(x) ?? 0) + 1);
  const values = [...tally.keys()].sort((a, b) => a - b);
  const counts = values.map((v) => tally.get(v)!);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let draws = n; // draws not yet given to a value
    let observed = n; // observations of the values not yet given their draws
    let sum = 0;
    for (let j = 0; j < values.length && draws > 0; j++) {
      const drawn = j === values.length - 1 ? draws : binomial(draws, counts[j]! / observed, random);
      sum += drawn * values[j]!;
      draws -= drawn;
      observed -= counts[j]!;
    }
    means[r] = sum / n;
  }
  const sorted = Array.from(means.sort());
  return { mean: mean(xs), ci95: [quantileSorted(sorted, (1 - level) / 2)!, quantileSorted(sorted, (1 + level) / 2)!] };
}

// ── Normal distribution ──────────────────────────────────────────────────────────────────────

/** Hart's coefficients, highest power first. */
const HART_NUMERATOR = [
  3.52624965998911e-2, 0.700383064443688, 6.37396220353165, 33.912866078383, 112.079291497871, 221.213596169931, 220.206867912376,
];
const HART_DENOMINATOR = [
  8.83883476483184e-2, 1.75566716318264, 16.064177579207, 86.7807322029461, 296.564248779674, 637.333633378831, 793.826512519948,
  440.413735824752,
];

/**
 * Upper tail P(Z > z) of the standard normal, by Hart's 1968 rational approximation as given by
 * G. West, "Better approximations to cumulative normal functions" (2005): about 1e-16 absolute
 * error, and under 1e-8 relative error out to z = 37 (0 beyond), so tiny p-values stay accurate.
 */
export function normalUpperTail(z: number): number {
  const x = Math.abs(z);
  let tail: number;
  if (x > 37) {
    tail = 0;
  } else {
    const e = Math.exp((-x * x) / 2);
    if (x < 7.07106781186547) {
      tail = (e * horner(x, HART_NUMERATOR)) / horner(x, HART_DENOMINATOR);
    } else {
      // The continued fraction x + 1/(x + 2/(x + 3/(x + 4/(x + 0.65)))).
      let b = x + 0.65;
      for (const k of [4, 3, 2, 1]) b = x + k / b;
      tail = e / b / 2.506628274631;
    }
  }
  return z >= 0 ? tail : 1 - tail;
}

/** The polynomial with these coefficients (highest power first) at x, by Horner's rule. */
function horner(x: number, coefficients: number[]): number {
  return coefficients.reduce((sum, c) => sum * x + c, 0);
}

// ── Wilcoxon signed-rank test ────────────────────────────────────────────────────────────────

export interface WilcoxonResult {
  method: "wilcoxon_signed_rank";
  /** Two-sided p-value; null when no difference is non-zero (nothing to test). */
  p_value: number | null;
  /** V: the sum of the ranks of the positive differences (R's statistic); null with p_value. */
  statistic: number | null;
  /** Non-zero differences the test used (zeros are dropped, R's default). */
  n: number;
  /** Differences equal to zero, dropped. */
  zeros: number;
  /** True: the exact null distribution; false: the normal approximation. */
  exact: boolean;
}

/** R's cut-off: the exact distribution for n < 50 when there are no ties and no zeros. */
const EXACT_MAX_N = 49;

/**
 * Two-sided Wilcoxon signed-rank test of paired differences against a location of 0, as R's
 * `wilcox.test(d)` (or `wilcox.test(x, y, paired = TRUE)` with d = x − y) computes it:
 * zeros dropped; |d| ranked with ties given their average rank; V = sum of positive ranks.
 * Exact p from the signed-rank distribution when n < 50 with no ties and no zeros; otherwise the
 * normal approximation with the tie correction of the variance and a continuity correction of
 * 0.5 towards the mean. Ties are exact equality of |d|, as R's default `digits.rank = Inf`.
 */
export function wilcoxonSignedRank(diffs: readonly number[]): WilcoxonResult {
  const nonZero = diffs.filter((d) => d !== 0);
  const zeros = diffs.length - nonZero.length;
  const n = nonZero.length;
  if (n === 0) return { method: "wilcoxon_signed_rank", p_value: null, statistic: null, n, zeros, exact: false };

  const order = nonZero.map((d, i) => ({ abs: Math.abs(d), positive: d > 0, i })).sort((a, b) => a.abs - b.abs);
  let statistic = 0;
  let tieTerm = 0; // Σ (t³ − t) over groups of equal |d|
  for (let start = 0; start < n;) {
    let end = start;
    while (end + 1 < n && order[end + 1]!.abs === order[start]!.abs) end++;
    const t = end - start + 1;
    const rank = (start + 1 + end + 1) / 2;
    for (let k = start; k <= end; k++) if (order[k]!.positive) statistic += rank;
    tieTerm += t * t * t - t;
    start = end + 1;
  }

  const expected = (n * (n + 1)) / 4;
  if (n <= EXACT_MAX_N && tieTerm === 0 && zeros === 0) {
    // R: p <- if (V > n(n+1)/4) psignrank(V - 1, n, lower.tail = FALSE) else psignrank(V, n); min(2p, 1).
    // The distribution is symmetric about n(n+1)/4, so P(V' ≥ V) = P(V' ≤ n(n+1)/2 − V): no 1 − cdf cancellation.
    const p = signedRankCdf(statistic > expected ? (n * (n + 1)) / 2 - statistic : statistic, n);
    return { method: "wilcoxon_signed_rank", p_value: Math.min(2 * p, 1), statistic, n, zeros, exact: true };
  }

  const sigma = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48);
  const shift = statistic - expected;
  const z = (shift - Math.sign(shift) * 0.5) / sigma;
  const p = 2 * Math.min(normalUpperTail(z), normalUpperTail(-z));
  return { method: "wilcoxon_signed_rank", p_value: Math.min(p, 1), statistic, n, zeros, exact: false };
}

/**
 * P(V ≤ v) under H0 for n untied non-zero differences: each of the 2ⁿ sign patterns is equally
 * likely; counts[s] = number of subsets of {1..n} summing to s. For n < 50 every count is below
 * 2⁴⁹, so the doubles are exact.
 */
export function signedRankCdf(v: number, n: number): number {
  const max = (n * (n + 1)) / 2;
  if (v < 0) return 0;
  if (v >= max) return 1;
  const counts = new Float64Array(max + 1);
  counts[0] = 1;
  for (let k = 1; k <= n; k++) {
    for (let s = (k * (k + 1)) / 2; s >= k; s--) counts[s]! += counts[s - k]!;
  }
  let below = 0;
  for (let s = 0; s <= Math.floor(v); s++) below += counts[s]!;
  return below / 2 ** n;
}

// ── McNemar's exact test ─────────────────────────────────────────────────────────────────────

export interface McNemarResult {
  method: "mcnemar_exact";
  /** Two-sided p-value; null when no pair flipped (b + c = 0: nothing to test). */
  p_value: number | null;
  /** Discordant pairs: b = pass → fail, c = fail → pass. */
  b: number;
  c: number;
}

/**
 * McNemar's exact test: under H0 a flip is equally likely either way, so b ~ Binomial(b + c, ½);
 * the two-sided p-value is R's `binom.test(b, b + c)`, which for p = ½ is
 * min(1, 2 · P(X ≤ min(b, c))). Summed in log space so thousands of flips do not underflow.
 */
export function mcnemarExact(b: number, c: number): McNemarResult {
  const n = b + c;
  if (n === 0) return { method: "mcnemar_exact", p_value: null, b, c };
  const k = Math.min(b, c);
  let logPmf = -n * Math.LN2; // P(X = 0)
  let tail = Math.exp(logPmf);
  for (let i = 1; i <= k; i++) {
    logPmf += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logPmf);
  }
  return { method: "mcnemar_exact", p_value: Math.min(1, 2 * tail), b, c };
}
