/**
 * How a run's results are counted in its summary (`Run.summary`, the JSON and Markdown reports).
 *
 * The execution model's ReportSummary states two rules other tools rely on: `total_tests == len(results)`
 * and `total_tests == passed + failed`, with `failed` every result that did not pass. A case
 * result is passed, failed (expectations not met), error (could not be judged) or skipped (never
 * executed), so the execution model's `failed` is the sum of the last three. Assay keeps that breakdown
 * beside it (`not_met`, `errors`, `skipped`), and its own pass rate over the executed results
 * (`executed_pass_rate`, the number the run's `pass_rate`, history and alerts use) next to the
 * the execution model's `pass_rate` over every result. Pure: the SQL summary, the reports and the run page share it.
 */

/** Case results of a run by status; `unfinished` are pending or running (0 once the run ended). */
export type StatusCounts = { passed: number; failed: number; errors: number; skipped: number; unfinished?: number };

/** The counted fields of a run summary. */
export type SummaryCounts = {
  /** Every result of the run (the execution model: `len(results)`). */
  total_tests: number;
  passed: number;
  /** Every result that did not pass: not_met + errors + skipped + unfinished (the execution model: `total_tests - passed`). */
  failed: number;
  /** Results whose expectations were not met (status `failed`). */
  not_met: number;
  /** Results that could not be judged: agent, simulator, judge or configuration errors. */
  errors: number;
  /** Results never executed (not runnable, cancelled, the run could not proceed). */
  skipped: number;
  /** Results still pending or running: 0 once the run ended (a report of a live run counts them as not passed yet). */
  unfinished: number;
  /** Executed results: passed + not_met + errors. */
  executed: number;
  /** Every result of the run (the same as total_tests; kept for readers of older summaries). */
  total_cases: number;
  /** The execution model: passed / total_tests × 100, one decimal (0 without results). */
  pass_rate: number;
  /** passed / executed × 100, one decimal (0 when nothing ran): the run's own pass_rate. */
  executed_pass_rate: number;
  /** Which results each count holds, in words, for readers of the report. */
  counting: string;
};

export const SUMMARY_COUNTING =
  "total_tests counts every result; failed counts every result that did not pass: not_met (expectations not met) + " +
  "errors (could not be judged) + skipped (never executed) + unfinished (still running). pass_rate = passed / total_tests; executed_pass_rate = " +
  "passed / executed, where executed = passed + not_met + errors.";

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

export function summaryCounts(c: StatusCounts): SummaryCounts {
  const unfinished = c.unfinished ?? 0;
  const total = c.passed + c.failed + c.errors + c.skipped + unfinished;
  const executed = c.passed + c.failed + c.errors;
  return {
    total_tests: total,
    passed: c.passed,
    failed: total - c.passed,
    not_met: c.failed,
    errors: c.errors,
    skipped: c.skipped,
    unfinished,
    executed,
    total_cases: total,
    pass_rate: percent(c.passed, total),
    executed_pass_rate: percent(c.passed, executed),
    counting: SUMMARY_COUNTING,
  };
}

/** A summary counted by the current rules (it has `not_met`); older ones are recounted by `currentSummary`. */
export function isCurrentSummary(s: unknown): boolean {
  return typeof s === "object" && s !== null && typeof (s as { not_met?: unknown }).not_met === "number";
}

/**
 * A stored summary in the current counting. Two older shapes are recounted from their own
 * numbers: `total_tests` = executed results with `total_cases` beside it, and before that
 * `total_tests` = every result; in both `failed` meant expectations not met. Anything else
 * (null, not an object) is returned as it is.
 */
export function currentSummary<T>(stored: T): T {
  if (typeof stored !== "object" || stored === null || isCurrentSummary(stored)) return stored;
  const s = stored as Record<string, unknown>;
  const num = (k: string) => (typeof s[k] === "number" ? (s[k] as number) : 0);
  if (typeof s.total_tests !== "number" || typeof s.passed !== "number") return stored;
  return { ...s, ...summaryCounts({ passed: num("passed"), failed: num("failed"), errors: num("errors"), skipped: num("skipped") }) } as T;
}
