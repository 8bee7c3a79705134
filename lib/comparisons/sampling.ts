/**
 * Exact random variates from a uniform source (`random()` in [0, 1), e.g. ./statistics.ts's
 * seeded mulberry32), for the bootstrap of a mean over few distinct values: a binomial draw in
 * O(log n) uniforms, however large n is, built on the textbook gamma and normal samplers.
 */

type Uniform = () => number;

/** A standard normal variate (Box–Muller; `1 - random()` lies in (0, 1], so the log is finite). */
export function normal(random: Uniform): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** A Gamma(shape, 1) variate for shape ≥ 1, by Marsaglia and Tsang's rejection method (2000). */
export function gamma(shape: number, random: Uniform): number {
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normal(random);
    const t = 1 + c * x;
    if (t <= 0) continue;
    const v = t * t * t;
    const u = 1 - random();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** Below this many trials a binomial is drawn trial by trial. */
const DIRECT_TRIALS = 64;

/**
 * A Binomial(n, p) variate, exactly, by Knuth's order-statistic splitting (TAOCP vol. 2,
 * 3.4.1): of n uniforms, the a-th smallest X is Beta(a, n + 1 − a). If X ≥ p the successes
 * (uniforms below p) are among the a − 1 below X, uniform on (0, X): Binomial(a − 1, p / X).
 * Otherwise those a are all successes, and the n − a above X are uniform on (X, 1):
 * a + Binomial(n − a, (p − X) / (1 − X)). Each step halves n; the last few are direct trials.
 */
export function binomial(n: number, p: number, random: Uniform): number {
  let successes = 0;
  while (n > DIRECT_TRIALS) {
    if (p <= 0) return successes;
    if (p >= 1) return successes + n;
    const a = 1 + Math.floor(n / 2);
    const b = n + 1 - a;
    const ga = gamma(a, random);
    const x = ga / (ga + gamma(b, random));
    if (x >= p) {
      n = a - 1;
      p = p / x;
    } else {
      successes += a;
      n = b - 1;
      p = (p - x) / (1 - x);
    }
  }
  for (let i = 0; i < n; i++) if (random() < p) successes++;
  return successes;
}
