/**
 * Judge calibration as numbers: how far to trust an LLM judge, measured by how its pass/fail
 * verdicts agree with a human reviewer's on the same case results. Pure functions over verdict
 * pairs and label counts (the caller gathers the labels; nothing here reads the database).
 *
 * Raw agreement flatters a judge on a lopsided suite: when 90% of results pass, a judge that
 * passes everything agrees 90% of the time and has checked nothing. Cohen's kappa,
 * (p_o − p_e) / (1 − p_e), takes away the agreement the two pass rates alone would give (p_e), and
 * the judge's status rests on the lower end of kappa's 95% interval, not on the point value, so a
 * handful of lucky labels cannot make a judge trusted. Failure recall and precision say which way
 * a judge errs: a lenient judge misses failures humans caught (low recall), a harsh one fails
 * results humans passed (low precision).
 *
 * Reviewers are measured against each other too (interReviewerAgreement): a judge cannot be asked
 * to agree with humans better than the humans agree among themselves.
 *
 * No result is ever NaN: what cannot be computed is null (kappa when p_e = 1, that is when both
 * sides gave every item the same single verdict: agreement is then total and says nothing).
 */
import type { Interval } from "@/lib/comparisons/statistics";
import { wilsonInterval } from "@/lib/runs/trials";

export type Confusion = {
  judge_pass_human_pass: number;
  judge_pass_human_fail: number;
  judge_fail_human_pass: number;
  judge_fail_human_fail: number;
};

/** One labelled judgement; true = pass. */
export type VerdictPair = { judge: boolean; human: boolean };

export function confusionOf(pairs: readonly VerdictPair[]): Confusion {
  const c: Confusion = { judge_pass_human_pass: 0, judge_pass_human_fail: 0, judge_fail_human_pass: 0, judge_fail_human_fail: 0 };
  for (const { judge, human } of pairs) {
    if (judge && human) c.judge_pass_human_pass++;
    else if (judge) c.judge_pass_human_fail++;
    else if (human) c.judge_fail_human_pass++;
    else c.judge_fail_human_fail++;
  }
  return c;
}

/** z for a two-sided 95% interval (the "1.96" of the textbooks, to full precision). */
const Z95 = 1.959963984540054;

export type CohenKappa = {
  n: number;
  /** p_o, the share of items both sides put in the same category; 0 when n = 0. */
  observed: number;
  /** p_e, the agreement expected from the two sides' pass rates alone; 0 when n = 0. */
  expected: number;
  /** null when n = 0 or p_e = 1 (see the module header). */
  kappa: number | null;
  /** Large-sample standard error (see fceVariance); null with kappa. */
  se: number | null;
  /** kappa ± 1.96·se, clamped to [-1, 1] (when se = 0, the Wilson interval of p_o mapped to kappa); null with kappa. */
  ci95: Interval | null;
};

/** Cohen's kappa of a 2×2 table: rows are the judge's verdicts, columns the human's. */
export function cohenKappa(c: Confusion): CohenKappa {
  const table = tableOf(c);
  const n = table[0][0] + table[0][1] + table[1][0] + table[1][1];
  if (n === 0) return { n: 0, observed: 0, expected: 0, kappa: null, se: null, ci95: null };
  const { rows, cols } = marginsOf(table);
  // In whole counts (n² · p_e, n · agreeing items) so that p_e = 1 is found exactly, not to
  // within rounding: counts stay far below 2^53 for any number of labels a workspace holds.
  const chance = rows[0] * cols[0] + rows[1] * cols[1];
  const agreeing = table[0][0] + table[1][1];
  const base = { n, observed: agreeing / n, expected: chance / (n * n) };
  if (chance === n * n) return { ...base, kappa: null, se: null, ci95: null };
  const kappa = (n * agreeing - chance) / (n * n - chance);
  const se = Math.sqrt(fceVariance(table, n, kappa));
  const ci95: Interval = se > 0 ? [clampKappa(kappa - Z95 * se), clampKappa(kappa + Z95 * se)] : wilsonKappaInterval(base);
  return { ...base, kappa, se, ci95 };
}

/**
 * The interval when the large-sample one collapses to a point (every item agrees, or none does:
 * the variance is 0). A point would let a judge be trusted on a handful of perfect labels, so the
 * Wilson score interval of the raw agreement p_o over the n items is mapped through
 * κ = (p_o − p_e) / (1 − p_e) with p_e held fixed: 30 perfect labels on a balanced suite give a
 * lower bound of about 0.77, 60 about 0.88 — doubt that shrinks with n, as it should.
 */
function wilsonKappaInterval({ n, observed, expected }: { n: number; observed: number; expected: number }): Interval {
  const [low, high] = wilsonInterval(observed, n, Z95);
  return [clampKappa((low - expected) / (1 - expected)), clampKappa((high - expected) / (1 - expected))];
}

type Table = [[number, number], [number, number]];

function tableOf(c: Confusion): Table {
  for (const [field, value] of Object.entries(c)) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`confusion.${field} must be a whole number ≥ 0, got ${value}`);
  }
  return [
    [c.judge_pass_human_pass, c.judge_pass_human_fail],
    [c.judge_fail_human_pass, c.judge_fail_human_fail],
  ];
}

function marginsOf(table: Table): { rows: [number, number]; cols: [number, number] } {
  return {
    rows: [table[0][0] + table[0][1], table[1][0] + table[1][1]],
    cols: [table[0][0] + table[1][0], table[0][1] + table[1][1]],
  };
}

/**
 * The large-sample variance of kappa of Fleiss, Cohen & Everitt (1969), "Large sample standard
 * errors of kappa and weighted kappa" (the one that does not assume κ = 0, so it fits an
 * interval), with p_ij the share of items in row i and column j and p_i·, p_·j the margins:
 *
 *   Var(κ) = [ Σ_i p_ii (1 − (p_i· + p_·i)(1 − κ))²
 *            + (1 − κ)² Σ_{i≠j} p_ij (p_·i + p_j·)²
 *            − (κ − p_e (1 − κ))² ] / (n (1 − p_e)²)
 *
 * It is 0 when every item agrees (κ = 1): a large-sample formula has no small-sample doubt to
 * give, so cohenKappa then uses wilsonKappaInterval, and judgeStatus also asks for a minimum
 * number of labels. Rounding can leave a
 * zero variance a hair below 0; it is read as 0.
 */
function fceVariance(table: Table, n: number, kappa: number): number {
  const p = table.map((row) => row.map((count) => count / n));
  const { rows, cols } = marginsOf(table);
  const pRow = rows.map((r) => r / n);
  const pCol = cols.map((c) => c / n);
  const expected = pRow[0]! * pCol[0]! + pRow[1]! * pCol[1]!;
  let sum = 0;
  for (let i = 0; i < 2; i++) {
    for (let j = 0; j < 2; j++) {
      sum +=
        i === j ? p[i]![i]! * (1 - (pRow[i]! + pCol[i]!) * (1 - kappa)) ** 2 : (1 - kappa) ** 2 * p[i]![j]! * (pCol[i]! + pRow[j]!) ** 2;
    }
  }
  sum -= (kappa - expected * (1 - kappa)) ** 2;
  return Math.max(0, sum / (n * (1 - expected) ** 2));
}

function clampKappa(x: number): number {
  return Math.min(1, Math.max(-1, x));
}

export type Agreement = {
  /** Labelled judgements. */
  n: number;
  /** Raw agreement p_o, 0..1; null when n = 0. */
  agreement: number | null;
  /** Cohen's kappa; null when undefined (n = 0 or p_e = 1). */
  kappa: number | null;
  /** 95% interval of kappa (Fleiss, Cohen & Everitt standard error), clamped to [-1, 1]. */
  kappa_ci95: Interval | null;
  confusion: Confusion;
  /** Of the items humans failed, the share the judge failed too; null when humans failed none. */
  failure_recall: number | null;
  /** Of the items the judge failed, the share humans failed too; null when the judge failed none. */
  failure_precision: number | null;
};

/** How a judge's verdicts agree with the human labels of the same results. */
export function agreementOf(pairs: readonly VerdictPair[]): Agreement {
  return agreementOfConfusion(confusionOf(pairs));
}

/** agreementOf from the counts themselves (a confusion matrix counted in SQL). */
export function agreementOfConfusion(confusion: Confusion): Agreement {
  const k = cohenKappa(confusion);
  const bothFailed = confusion.judge_fail_human_fail;
  return {
    n: k.n,
    agreement: k.n > 0 ? k.observed : null,
    kappa: k.kappa,
    kappa_ci95: k.ci95,
    confusion,
    failure_recall: share(bothFailed, bothFailed + confusion.judge_pass_human_fail),
    failure_precision: share(bothFailed, bothFailed + confusion.judge_fail_human_pass),
  };
}

function share(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

export type FleissKappa = {
  items: number;
  raters: number;
  /** P̄, the mean over items of the share of rater pairs that agree; 0 without items. */
  observed: number;
  /** P̄e, the sum over categories of the squared share of all ratings in it; 0 without items. */
  expected: number;
  /** null without items or when P̄e = 1 (every rating in one category). */
  kappa: number | null;
};

/**
 * Fleiss' kappa (Fleiss 1971): agreement among a fixed number of raters per item, who need not be
 * the same people from item to item. counts[i][j] = how many raters put item i in category j;
 * every row must sum to the same number of raters (≥ 2).
 */
export function fleissKappa(counts: readonly (readonly number[])[]): FleissKappa {
  if (counts.length === 0) return { items: 0, raters: 0, observed: 0, expected: 0, kappa: null };
  const raters = checkedRaters(counts);
  const items = counts.length;
  const ratings = items * raters;
  const totals = counts[0]!.map((_, j) => counts.reduce((sum, row) => sum + row[j]!, 0));
  let agreeingPairs = 0;
  for (const row of counts) for (const count of row) agreeingPairs += count * (count - 1);
  const observed = agreeingPairs / (items * raters * (raters - 1));
  const expected = totals.reduce((sum, total) => sum + (total / ratings) ** 2, 0);
  // Whole counts again: P̄e = 1 exactly when one category holds every rating.
  const kappa = totals.includes(ratings) ? null : (observed - expected) / (1 - expected);
  return { items, raters, observed, expected, kappa };
}

/** The raters per item, after checking every row has the same categories and the same sum. */
function checkedRaters(counts: readonly (readonly number[])[]): number {
  const categories = counts[0]!.length;
  const raters = counts[0]!.reduce((sum, count) => sum + count, 0);
  counts.forEach((row, i) => {
    if (row.length !== categories) throw new RangeError(`counts[${i}] has ${row.length} categories, counts[0] has ${categories}`);
    row.forEach((count, j) => {
      if (!Number.isInteger(count) || count < 0) throw new RangeError(`counts[${i}][${j}] must be a whole number ≥ 0, got ${count}`);
    });
    const sum = row.reduce((s, count) => s + count, 0);
    if (sum !== raters)
      throw new RangeError(`counts[${i}] sums to ${sum} raters, counts[0] to ${raters}: every item needs the same number`);
  });
  if (raters < 2) throw new RangeError(`counts rows sum to ${raters} rater(s): agreement needs at least 2 per item`);
  return raters;
}

export type InterReviewer = {
  items: number;
  method: "cohen" | "fleiss";
  agreement: number | null;
  kappa: number | null;
  /** Cohen's only: no interval is given for Fleiss' kappa (its published standard error holds under κ = 0 alone). */
  kappa_ci95: Interval | null;
};

/**
 * Agreement between reviewers, from the pass/fail verdicts each item received (in label order).
 *
 * Kappa needs the same number of labels on every item, and items are reviewed unevenly, so one
 * count k is chosen and the rest follow from it:
 * - k is the most common label count among the items with 2 or more labels; on a tie, the larger
 *   count (more reviewers per item say more about each item).
 * - Every item with at least k labels takes part, with its first k labels (an item reviewed more
 *   often than usual still counts; its later labels are left out). Items with fewer are left out.
 * - k = 2: Cohen's kappa, first label against second, with its interval. k ≥ 3: Fleiss' kappa
 *   with k raters, agreement being P̄ (the mean share of agreeing reviewer pairs per item).
 * null when fewer than 2 items take part.
 */
export function interReviewerAgreement(labelsPerItem: readonly (readonly boolean[])[]): InterReviewer | null {
  const k = typicalLabelCount(labelsPerItem.filter((labels) => labels.length >= 2));
  if (k === null) return null;
  const items = labelsPerItem.filter((labels) => labels.length >= k).map((labels) => labels.slice(0, k));
  if (items.length < 2) return null;
  if (k === 2) {
    // The first reviewer takes the table's row (the "judge" side), the second its column.
    const cohen = cohenKappa(confusionOf(items.map(([first, second]) => ({ judge: first!, human: second! }))));
    return { items: items.length, method: "cohen", agreement: cohen.observed, kappa: cohen.kappa, kappa_ci95: cohen.ci95 };
  }
  const fleiss = fleissKappa(items.map((labels) => passFailCounts(labels)));
  return { items: items.length, method: "fleiss", agreement: fleiss.observed, kappa: fleiss.kappa, kappa_ci95: null };
}

/** The label count most items have; the larger one on a tie; null without items. */
function typicalLabelCount(items: readonly (readonly boolean[])[]): number | null {
  const frequency = new Map<number, number>();
  for (const labels of items) frequency.set(labels.length, (frequency.get(labels.length) ?? 0) + 1);
  let best: number | null = null;
  for (const [count, times] of frequency) {
    const bestTimes = best === null ? 0 : frequency.get(best)!;
    if (times > bestTimes || (times === bestTimes && count > best!)) best = count;
  }
  return best;
}

function passFailCounts(labels: readonly boolean[]): [number, number] {
  const passes = labels.filter(Boolean).length;
  return [passes, labels.length - passes];
}

/**
 * Trust status of a judge: "uncalibrated" while fewer than minLabels results are labelled;
 * "trusted" when the lower end of kappa's 95% interval reaches trustedKappa; "doubtful" otherwise,
 * including when kappa is undefined (labels that never differ show nothing about the judge).
 */
export function judgeStatus(
  a: Agreement,
  thresholds: { minLabels: number; trustedKappa: number },
): "uncalibrated" | "trusted" | "doubtful" {
  if (a.n < thresholds.minLabels) return "uncalibrated";
  if (a.kappa_ci95 !== null && a.kappa_ci95[0] >= thresholds.trustedKappa) return "trusted";
  return "doubtful";
}
