/**
 * Repeated trials as numbers: what several executions of the same case say about it, and what a
 * run's cases say together. Pure functions over per-case trial counts (SQL groups the case
 * results by test case; nothing here reads the database), shared by the run summary, the per-case
 * API, the reports and the CLI gates.
 *
 * Errors are not failures: a trial that errored (agent, files or judge) says nothing about the
 * agent's answer, so it is counted apart and left out of every rate's denominator. A case whose
 * every trial errored has no rate at all and is labelled `error`.
 */
import { bootstrapMeanOfFewValues, DEFAULT_BOOTSTRAP_SEED, DEFAULT_RESAMPLES, type Interval } from "@/lib/comparisons/statistics";

/** How one case's trials in one run came out. */
export interface CaseTrialCounts {
  /** Trials executed: the case's results that passed, failed or errored (not the skipped or unfinished ones). */
  trials: number;
  passed: number;
  errored: number;
}

export type Stability = "stable_pass" | "flaky" | "stable_fail" | "error";

export interface CaseTrialStats {
  trials: number;
  passed_trials: number;
  errored_trials: number;
  /** passed / judged trials (judged = not errored); null when no trial was judged. */
  pass_rate: number | null;
  /** At least one trial passed. */
  pass_at_k: boolean;
  /** Every judged trial passed (pass^k); false when no trial was judged. */
  pass_all_k: boolean;
  /** null while no trial of the case has been executed (pending, or every trial skipped). */
  stability: Stability | null;
}

export function caseTrialStats({ trials, passed, errored }: CaseTrialCounts): CaseTrialStats {
  const judged = trials - errored;
  const passRate = judged > 0 ? passed / judged : null;
  return {
    trials,
    passed_trials: passed,
    errored_trials: errored,
    pass_rate: passRate,
    pass_at_k: passed > 0,
    pass_all_k: judged > 0 && passed === judged,
    stability: trials > 0 ? stabilityOf(passed, judged) : null,
  };
}

function stabilityOf(passed: number, judged: number): Stability {
  if (judged === 0) return "error";
  if (passed === judged) return "stable_pass";
  if (passed === 0) return "stable_fail";
  return "flaky";
}

export const PASS_AT_1_INTERVAL_METHOD =
  `case-level percentile bootstrap: cases resampled with their trials, ${DEFAULT_RESAMPLES} resamples, seed ${DEFAULT_BOOTSTRAP_SEED}; ` +
  "when every judged case has the same pass rate (nothing to resample: the bootstrap gives a point), the Wilson score interval over the judged cases";

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * The Wilson score interval of a proportion `p` observed over `n` units (here: cases, `p` the
 * mean of their pass rates). Unlike a percentile bootstrap it stays open when every unit agrees:
 * 8 cases that all pass give [0.68, 1], not [1, 1].
 */
export function wilsonInterval(p: number, n: number, z = Z95): Interval {
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export interface RunTrialStats {
  /** Cases with at least one judged trial: the denominator of every rate below. */
  judged_cases: number;
  /** Mean over judged cases of the case's pass rate; null without a judged case. */
  pass_at_1: number | null;
  /** 95% interval of pass_at_1 (see PASS_AT_1_INTERVAL_METHOD); null without a judged case. */
  pass_at_1_ci95: Interval | null;
  /** Share of judged cases with at least one passing trial. */
  pass_at_k: number | null;
  /** Share of judged cases whose every judged trial passed. */
  pass_all_k: number | null;
  flaky_cases: number;
  /** Cases whose every executed trial errored. */
  error_only_cases: number;
}

/**
 * The run-level figures over its cases. A resample draws whole cases, so a case's trials stay
 * together (they are not independent of each other: same input, same agent). With one trial
 * per case this is the plain pass rate over judged cases and its bootstrap interval.
 */
export function runTrialStats(cases: readonly CaseTrialStats[]): RunTrialStats {
  const judged = cases.filter((c) => c.pass_rate !== null);
  const share = (count: number) => (judged.length > 0 ? count / judged.length : null);
  const location = bootstrapMeanOfFewValues(judged.map((c) => c.pass_rate!));
  return {
    judged_cases: judged.length,
    pass_at_1: location.mean,
    pass_at_1_ci95: location.ci95 && openedUp(location.ci95, location.mean!, judged.length),
    pass_at_k: share(judged.filter((c) => c.pass_at_k).length),
    pass_all_k: share(judged.filter((c) => c.pass_all_k).length),
    flaky_cases: cases.filter((c) => c.stability === "flaky").length,
    error_only_cases: cases.filter((c) => c.stability === "error").length,
  };
}

/**
 * The bootstrap's interval, unless it is a point: when every case has the same pass rate (all
 * pass, all fail) no resample differs, and a point would claim certainty 8 green cases do not give.
 */
function openedUp(ci: Interval, mean: number, cases: number): Interval {
  return ci[0] === ci[1] ? wilsonInterval(mean, cases) : ci;
}

/**
 * How often a case's judged verdict changed between consecutive results (oldest first):
 * changes / (n − 1) over the judged results only; null with fewer than two of them.
 */
export function flipRate(judgedPassed: readonly boolean[]): number | null {
  if (judgedPassed.length < 2) return null;
  let changes = 0;
  for (let i = 1; i < judgedPassed.length; i++) if (judgedPassed[i] !== judgedPassed[i - 1]) changes++;
  return changes / (judgedPassed.length - 1);
}
