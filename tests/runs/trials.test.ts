import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/comparisons/statistics";
import { caseTrialStats, flipRate, runTrialStats, wilsonInterval } from "@/lib/runs/trials";

describe("caseTrialStats", () => {
  it("labels each mix of trial outcomes", () => {
    expect(caseTrialStats({ trials: 3, passed: 3, errored: 0 })).toEqual({
      trials: 3,
      passed_trials: 3,
      errored_trials: 0,
      pass_rate: 1,
      pass_at_k: true,
      pass_all_k: true,
      stability: "stable_pass",
    });
    expect(caseTrialStats({ trials: 3, passed: 1, errored: 0 })).toMatchObject({
      pass_rate: 1 / 3,
      pass_at_k: true,
      pass_all_k: false,
      stability: "flaky",
    });
    expect(caseTrialStats({ trials: 3, passed: 0, errored: 1 })).toMatchObject({
      pass_rate: 0,
      pass_at_k: false,
      pass_all_k: false,
      stability: "stable_fail",
    });
  });

  it("leaves errored trials out of the pass rate's denominator", () => {
    expect(caseTrialStats({ trials: 4, passed: 2, errored: 2 })).toMatchObject({
      pass_rate: 1,
      pass_all_k: true,
      stability: "stable_pass",
    });
    expect(caseTrialStats({ trials: 2, passed: 0, errored: 2 })).toMatchObject({
      pass_rate: null,
      pass_at_k: false,
      pass_all_k: false,
      stability: "error",
    });
  });

  it("has no stability before a trial ran (pending or skipped trials are not executions)", () => {
    expect(caseTrialStats({ trials: 0, passed: 0, errored: 0 })).toMatchObject({ pass_rate: null, stability: null });
    expect(runTrialStats([caseTrialStats({ trials: 0, passed: 0, errored: 0 })])).toMatchObject({ judged_cases: 0, error_only_cases: 0 });
  });
});

describe("runTrialStats", () => {
  it("averages case pass rates and counts flaky and errored cases apart", () => {
    const stats = runTrialStats([
      caseTrialStats({ trials: 4, passed: 4, errored: 0 }),
      caseTrialStats({ trials: 4, passed: 1, errored: 0 }),
      caseTrialStats({ trials: 4, passed: 0, errored: 0 }),
      caseTrialStats({ trials: 4, passed: 0, errored: 4 }),
    ]);
    expect(stats.judged_cases).toBe(3);
    expect(stats.pass_at_1).toBeCloseTo((1 + 0.25 + 0) / 3, 12);
    expect(stats.pass_at_k).toBeCloseTo(2 / 3, 12);
    expect(stats.pass_all_k).toBeCloseTo(1 / 3, 12);
    expect(stats.flaky_cases).toBe(1);
    expect(stats.error_only_cases).toBe(1);
    const [low, high] = stats.pass_at_1_ci95!;
    expect(low).toBeGreaterThanOrEqual(0);
    expect(low).toBeLessThan(stats.pass_at_1!);
    expect(high).toBeGreaterThan(stats.pass_at_1!);
    expect(high).toBeLessThanOrEqual(1);
  });

  it("is the plain pass rate with one trial per case, and the same interval on every call", () => {
    const cases = [true, true, false, true].map((passed) => caseTrialStats({ trials: 1, passed: passed ? 1 : 0, errored: 0 }));
    const stats = runTrialStats(cases);
    expect(stats.pass_at_1).toBe(0.75);
    expect(stats.pass_at_k).toBe(0.75);
    expect(stats.pass_all_k).toBe(0.75);
    expect(runTrialStats(cases).pass_at_1_ci95).toEqual(stats.pass_at_1_ci95);
  });

  it("keeps the interval open when every case agrees (the bootstrap alone would give [1, 1])", () => {
    const allPass = runTrialStats(Array.from({ length: 8 }, () => caseTrialStats({ trials: 1, passed: 1, errored: 0 })));
    expect(allPass.pass_at_1).toBe(1);
    const [low, high] = allPass.pass_at_1_ci95!;
    expect(high).toBe(1);
    // Wilson for 8 of 8: (1 + z²/16) / (1 + z²/8) − … ≈ 0.676.
    expect(low).toBeCloseTo(0.6756, 3);
    const allFail = runTrialStats(Array.from({ length: 3 }, () => caseTrialStats({ trials: 5, passed: 0, errored: 0 })));
    expect(allFail.pass_at_1_ci95![0]).toBe(0);
    expect(allFail.pass_at_1_ci95![1]).toBeGreaterThan(0.4);
    expect(wilsonInterval(0.5, 100)).toEqual([expect.closeTo(0.4038, 3), expect.closeTo(0.5962, 3)]);
  });

  it("has no rates and no interval without a judged case", () => {
    const stats = runTrialStats([caseTrialStats({ trials: 2, passed: 0, errored: 2 })]);
    expect(stats).toMatchObject({ judged_cases: 0, pass_at_1: null, pass_at_1_ci95: null, pass_at_k: null });
  });

  it("covers the true pass probability in at least 90 of 100 seeded runs", () => {
    const random = mulberry32(7);
    const p = 0.7;
    let covered = 0;
    for (let run = 0; run < 100; run++) {
      const cases = Array.from({ length: 60 }, () => {
        let passed = 0;
        for (let t = 0; t < 3; t++) if (random() < p) passed++;
        return caseTrialStats({ trials: 3, passed, errored: 0 });
      });
      const [low, high] = runTrialStats(cases).pass_at_1_ci95!;
      if (low <= p && p <= high) covered++;
    }
    expect(covered).toBeGreaterThanOrEqual(90);
    expect(covered).toBeLessThan(100);
  });

  /** Seeded runs of `cases` × `trials`: how many of 100 intervals cover `mean` (each case's p from `caseP`). */
  function coverage(opts: {
    seed: number;
    cases: number;
    trials: number;
    caseP: (random: () => number) => number;
    errorRate: number;
    mean: number;
  }) {
    const random = mulberry32(opts.seed);
    let covered = 0;
    for (let run = 0; run < 100; run++) {
      const cases = Array.from({ length: opts.cases }, () => {
        const p = opts.caseP(random);
        let passed = 0;
        let errored = 0;
        for (let t = 0; t < opts.trials; t++) {
          if (random() < opts.errorRate) errored++;
          else if (random() < p) passed++;
        }
        return caseTrialStats({ trials: opts.trials, passed, errored });
      });
      const [low, high] = runTrialStats(cases).pass_at_1_ci95!;
      if (low <= opts.mean && opts.mean <= high) covered++;
    }
    return covered;
  }

  it("covers the mean pass probability when cases differ and some trials error", () => {
    // Each case has its own p (uniform on 0.2..1, mean 0.6) and one trial in ten errors: errors
    // leave the denominators, and the case-level resample carries the spread between cases.
    const covered = coverage({ seed: 7, cases: 40, trials: 5, caseP: (random) => 0.2 + 0.8 * random(), errorRate: 0.1, mean: 0.6 });
    expect(covered).toBeGreaterThanOrEqual(90);
    expect(covered).toBeLessThan(100);
  });
});

describe("flipRate", () => {
  it("counts verdict changes between consecutive judged results", () => {
    expect(flipRate([true, false, true, true])).toBeCloseTo(2 / 3, 12);
    expect(flipRate([false, false, false])).toBe(0);
    expect(flipRate([true])).toBeNull();
  });
});
