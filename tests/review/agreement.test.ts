import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/comparisons/statistics";
import {
  agreementOf,
  cohenKappa,
  confusionOf,
  fleissKappa,
  interReviewerAgreement,
  judgeStatus,
  type Confusion,
  type VerdictPair,
} from "@/lib/review/agreement";

const Z95 = 1.959963984540054;

function confusion(jpHp: number, jpHf: number, jfHp: number, jfHf: number): Confusion {
  return { judge_pass_human_pass: jpHp, judge_pass_human_fail: jpHf, judge_fail_human_pass: jfHp, judge_fail_human_fail: jfHf };
}

/** The verdict pairs behind a confusion table, so agreementOf is tested from its real input. */
function pairsOf(c: Confusion): VerdictPair[] {
  const repeat = (count: number, pair: VerdictPair) => Array.from({ length: count }, () => pair);
  return [
    ...repeat(c.judge_pass_human_pass, { judge: true, human: true }),
    ...repeat(c.judge_pass_human_fail, { judge: true, human: false }),
    ...repeat(c.judge_fail_human_pass, { judge: false, human: true }),
    ...repeat(c.judge_fail_human_fail, { judge: false, human: false }),
  ];
}

/** Kappa from its definition, (p_o − p_e) / (1 − p_e), over a k×k table of counts. */
function kappaByDefinition(table: number[][]): number {
  const { n, rows, cols } = margins(table);
  const po = table.reduce((sum, row, i) => sum + row[i]!, 0) / n;
  const pe = rows.reduce((sum, r, i) => sum + (r / n) * (cols[i]! / n), 0);
  return (po - pe) / (1 - pe);
}

/**
 * The Fleiss, Cohen & Everitt (1969) variance of kappa written out in p_o and p_e rather than in κ
 * (the module's form), over a k×k table — the same quantity reached by a different road:
 *   Var = { Σ_i p_ii [(1 − p_e) − (p_·i + p_i·)(1 − p_o)]² + (1 − p_o)² Σ_{i≠j} p_ij (p_·i + p_j·)²
 *           − (p_o p_e − 2 p_e + p_o)² } / (n (1 − p_e)⁴)
 */
function fceVarianceByPoPe(table: number[][]): number {
  const { n, rows, cols } = margins(table);
  const row = rows.map((r) => r / n);
  const col = cols.map((c) => c / n);
  const po = table.reduce((sum, r, i) => sum + r[i]!, 0) / n;
  const pe = row.reduce((sum, r, i) => sum + r * col[i]!, 0);
  let diagonal = 0;
  let offDiagonal = 0;
  table.forEach((r, i) =>
    r.forEach((count, j) => {
      const p = count / n;
      if (i === j) diagonal += p * (1 - pe - (col[i]! + row[i]!) * (1 - po)) ** 2;
      else offDiagonal += p * (col[i]! + row[j]!) ** 2;
    }),
  );
  return (diagonal + (1 - po) ** 2 * offDiagonal - (po * pe - 2 * pe + po) ** 2) / (n * (1 - pe) ** 4);
}

function margins(table: number[][]) {
  const rows = table.map((r) => r.reduce((a, b) => a + b, 0));
  const cols = table[0]!.map((_, j) => table.reduce((sum, r) => sum + r[j]!, 0));
  return { n: rows.reduce((a, b) => a + b, 0), rows, cols };
}

function tableOf(c: Confusion): number[][] {
  return [
    [c.judge_pass_human_pass, c.judge_pass_human_fail],
    [c.judge_fail_human_pass, c.judge_fail_human_fail],
  ];
}

describe("confusionOf", () => {
  it("puts each pair in its cell", () => {
    expect(
      confusionOf([
        { judge: true, human: true },
        { judge: true, human: false },
        { judge: true, human: false },
        { judge: false, human: true },
        { judge: false, human: false },
        { judge: false, human: false },
        { judge: false, human: false },
      ]),
    ).toEqual(confusion(1, 2, 1, 3));
    expect(confusionOf([])).toEqual(confusion(0, 0, 0, 0));
  });
});

describe("cohenKappa", () => {
  // The textbook table (Wikipedia, "Cohen's kappa"): 50 items, 20 both pass, 5 judge-only pass,
  // 10 human-only pass, 15 both fail.
  const textbook = confusion(20, 5, 10, 15);

  it("gives p_o = 0.70, p_e = 0.50 and κ = 0.40 on the textbook table", () => {
    const k = cohenKappa(textbook);
    expect(k.n).toBe(50);
    expect(k.observed).toBeCloseTo(0.7, 12);
    expect(k.expected).toBeCloseTo(0.5, 12);
    expect(k.kappa).toBeCloseTo(0.4, 12);
  });

  it("gives the Fleiss–Cohen–Everitt standard error and its interval on the textbook table", () => {
    // By hand, with p = (0.4, 0.1 / 0.2, 0.3), rows (0.5, 0.5), columns (0.6, 0.4), κ = 0.4:
    //   Σ p_ii (1 − (p_i· + p_·i)(1 − κ))²    = 0.4·0.34² + 0.3·0.46²        = 0.10972
    //   (1 − κ)² Σ_{i≠j} p_ij (p_·i + p_j·)²  = 0.36·(0.1·1.1² + 0.2·0.9²)   = 0.10188
    //   (κ − p_e (1 − κ))²                    = (0.4 − 0.3)²                 = 0.01
    //   Var = 0.2016 / (50 · 0.5²) = 0.016128
    const k = cohenKappa(textbook);
    expect(k.se).toBeCloseTo(Math.sqrt(0.016128), 12);
    expect(k.se).toBeCloseTo(Math.sqrt(fceVarianceByPoPe(tableOf(textbook))), 12);
    expect(k.ci95![0]).toBeCloseTo(0.4 - Z95 * Math.sqrt(0.016128), 12);
    expect(k.ci95![1]).toBeCloseTo(0.4 + Z95 * Math.sqrt(0.016128), 12);
    expect(k.ci95![0]).toBeCloseTo(0.151, 3);
    expect(k.ci95![1]).toBeCloseTo(0.649, 3);
  });

  it("gives κ = 1 and a zero standard error when every item agrees, with an interval that still doubts 20 labels", () => {
    const k = cohenKappa(confusion(12, 0, 0, 8));
    expect(k.kappa).toBe(1);
    expect(k.se).toBe(0);
    // The Wilson score interval of p_o = 1 over 20 items, mapped to kappa with p_e = (12·12 + 8·8) / 20² = 0.52.
    const z2 = Z95 * Z95;
    const centre = (1 + z2 / 40) / (1 + z2 / 20);
    const half = (Z95 / (1 + z2 / 20)) * Math.sqrt(z2 / 1600);
    expect(k.ci95![0]).toBeCloseTo((centre - half - 0.52) / 0.48, 12);
    expect(k.ci95![0]).toBeCloseTo(0.664, 3);
    expect(k.ci95![1]).toBe(1);
    // More perfect labels, less doubt.
    expect(cohenKappa(confusion(36, 0, 0, 24)).ci95![0]).toBeGreaterThan(k.ci95![0]);
  });

  it("gives κ = 0 when the agreement is what the pass rates alone predict", () => {
    // Rows 15/10, columns 15/10: p_e = (15·15 + 10·10) / 25² = 0.52 = p_o = 13/25.
    const k = cohenKappa(confusion(9, 6, 6, 4));
    expect(k.observed).toBeCloseTo(0.52, 12);
    expect(k.expected).toBeCloseTo(0.52, 12);
    expect(k.kappa).toBeCloseTo(0, 12);
  });

  it("has no kappa when both sides used one identical category (p_e = 1)", () => {
    expect(cohenKappa(confusion(30, 0, 0, 0))).toEqual({ n: 30, observed: 1, expected: 1, kappa: null, se: null, ci95: null });
    expect(cohenKappa(confusion(0, 0, 0, 7))).toMatchObject({ kappa: null, se: null, ci95: null });
  });

  it("keeps kappa defined when the sides used different single categories (p_e = 0)", () => {
    expect(cohenKappa(confusion(0, 9, 0, 0))).toMatchObject({ observed: 0, expected: 0, kappa: 0 });
  });

  it("has nothing to say about no items", () => {
    expect(cohenKappa(confusion(0, 0, 0, 0))).toEqual({ n: 0, observed: 0, expected: 0, kappa: null, se: null, ci95: null });
  });

  it("clamps the interval to [-1, 1]", () => {
    // κ = 0.8, se ≈ 0.186 on 10 items: the upper end, 1.16 unclamped, stops at 1.
    const high = cohenKappa(confusion(5, 1, 0, 4));
    expect(high.kappa).toBeCloseTo(0.8, 12);
    expect(high.se).toBeCloseTo(Math.sqrt(0.03456), 12);
    expect(high.ci95![0]).toBeCloseTo(0.8 - Z95 * Math.sqrt(0.03456), 12);
    expect(high.ci95![1]).toBe(1);
    // κ = −0.6, se ≈ 0.253: the lower end, −1.096 unclamped, stops at −1.
    const low = cohenKappa(confusion(1, 4, 4, 1));
    expect(low.kappa).toBeCloseTo(-0.6, 12);
    expect(low.se).toBeCloseTo(Math.sqrt(0.064), 12);
    expect(low.ci95![0]).toBe(-1);
    expect(low.ci95![1]).toBeCloseTo(-0.6 + Z95 * Math.sqrt(0.064), 12);
  });

  it("refuses counts that are not whole numbers ≥ 0, naming the cell", () => {
    expect(() => cohenKappa(confusion(1, -1, 0, 0))).toThrow(/confusion\.judge_pass_human_fail/);
    expect(() => cohenKappa(confusion(1, 0, 0.5, 0))).toThrow(/confusion\.judge_fail_human_pass/);
  });

  it("matches κ's definition and the p_o/p_e form of its variance on random tables", () => {
    const random = mulberry32(20260611);
    const cell = () => Math.floor(random() * 40);
    let undefinedKappas = 0;
    for (let trial = 0; trial < 2000; trial++) {
      // Every fourth table is lopsided (one side or one category empty) to reach the edges.
      const c = trial % 4 === 0 ? confusion(cell(), 0, 0, trial % 8 === 0 ? 0 : cell()) : confusion(cell(), cell(), cell(), cell());
      const table = tableOf(c);
      const k = cohenKappa(c);
      const { n, rows, cols } = margins(table);
      if (n === 0 || rows[0]! * cols[0]! + rows[1]! * cols[1]! === n * n) {
        undefinedKappas++;
        expect(k.kappa).toBeNull();
        continue;
      }
      expect(k.kappa).toBeCloseTo(kappaByDefinition(table), 12);
      expect(k.se! ** 2).toBeCloseTo(Math.max(0, fceVarianceByPoPe(table)), 12);
    }
    // The edges were reached, and most tables were not edges.
    expect(undefinedKappas).toBeGreaterThan(0);
    expect(undefinedKappas).toBeLessThan(500);
  });
});

describe("agreementOf", () => {
  it("reports agreement, kappa and which way the judge errs", () => {
    const a = agreementOf(pairsOf(confusion(20, 5, 10, 15)));
    expect(a.n).toBe(50);
    expect(a.agreement).toBeCloseTo(0.7, 12);
    expect(a.kappa).toBeCloseTo(0.4, 12);
    expect(a.kappa_ci95![0]).toBeCloseTo(0.4 - Z95 * Math.sqrt(0.016128), 12);
    expect(a.confusion).toEqual(confusion(20, 5, 10, 15));
    // Humans failed 20 (15 caught by the judge, 5 passed by it); the judge failed 25 (15 of them humans failed too).
    expect(a.failure_recall).toBeCloseTo(15 / 20, 12);
    expect(a.failure_precision).toBeCloseTo(15 / 25, 12);
  });

  it("has no recall when humans failed nothing, no precision when the judge failed nothing", () => {
    expect(agreementOf(pairsOf(confusion(8, 0, 2, 0)))).toMatchObject({ failure_recall: null, failure_precision: 0 });
    expect(agreementOf(pairsOf(confusion(8, 2, 0, 0)))).toMatchObject({ failure_recall: 0, failure_precision: null });
  });

  it("is all nulls without labels", () => {
    expect(agreementOf([])).toEqual({
      n: 0,
      agreement: null,
      kappa: null,
      kappa_ci95: null,
      confusion: confusion(0, 0, 0, 0),
      failure_recall: null,
      failure_precision: null,
    });
  });

  it("keeps raw agreement when kappa is undefined", () => {
    expect(agreementOf(pairsOf(confusion(0, 0, 0, 6)))).toMatchObject({ agreement: 1, kappa: null, kappa_ci95: null, failure_recall: 1 });
  });
});

describe("fleissKappa", () => {
  it("reproduces Fleiss' worked example (10 items, 14 raters, 5 categories)", () => {
    const f = fleissKappa([
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ]);
    expect(f.items).toBe(10);
    expect(f.raters).toBe(14);
    expect(f.observed).toBeCloseTo(0.378, 3);
    expect(f.expected).toBeCloseTo(0.213, 3);
    expect(f.kappa).toBeCloseTo(0.21, 3);
  });

  it("gives κ = 1 when every item is unanimous, and none when one category holds every rating", () => {
    expect(
      fleissKappa([
        [3, 0],
        [0, 3],
        [3, 0],
      ]),
    ).toMatchObject({ observed: 1, kappa: 1 });
    expect(
      fleissKappa([
        [0, 4],
        [0, 4],
      ]),
    ).toMatchObject({ observed: 1, expected: 1, kappa: null });
    expect(fleissKappa([])).toEqual({ items: 0, raters: 0, observed: 0, expected: 0, kappa: null });
  });

  it("refuses rows that disagree on raters or categories, naming the row", () => {
    expect(() =>
      fleissKappa([
        [2, 1],
        [2, 2],
      ]),
    ).toThrow(/counts\[1\] sums to 4/);
    expect(() => fleissKappa([[2, 1], [3]])).toThrow(/counts\[1\] has 1 categories/);
    expect(() => fleissKappa([[1, 0]])).toThrow(/at least 2/);
    expect(() => fleissKappa([[1, -1, 2]])).toThrow(/counts\[0\]\[1\]/);
  });
});

describe("interReviewerAgreement", () => {
  it("uses Cohen's kappa, first label against second, when two labels per item is the usual", () => {
    // Two-label items are the usual: 49 of them, and the three-label item joins with its first
    // two labels (fail, pass), completing the textbook table. One-label and unlabelled items stay out.
    const items: boolean[][] = [...pairsOf(confusion(20, 5, 9, 15)).map((p) => [p.judge, p.human]), [false, true, false], [true], []];
    const r = interReviewerAgreement(items)!;
    expect(r.method).toBe("cohen");
    expect(r.items).toBe(50);
    expect(r.agreement).toBeCloseTo(0.7, 12);
    expect(r.kappa).toBeCloseTo(0.4, 12);
    expect(r.kappa_ci95![1]).toBeCloseTo(0.4 + Z95 * Math.sqrt(0.016128), 12);
  });

  it("uses Fleiss' kappa over the usual number of labels when that is three or more", () => {
    // Three-label items are the most common (3 against 2); the four-label item joins with its
    // first three; the two-label items are left out.
    const r = interReviewerAgreement([
      [true, true, true],
      [false, false, true],
      [false, false, false],
      [true, false, true, false],
      [true, false],
      [false, false],
    ])!;
    const expected = fleissKappa([
      [3, 0],
      [1, 2],
      [0, 3],
      [2, 1],
    ]);
    expect(r).toEqual({ items: 4, method: "fleiss", agreement: expected.observed, kappa: expected.kappa, kappa_ci95: null });
    // P̄ = (1 + 1/3 + 1 + 1/3) / 4; the twelve ratings split 6 pass / 6 fail, so P̄e = 0.5.
    expect(r.agreement).toBeCloseTo(2 / 3, 12);
    expect(r.kappa).toBeCloseTo(1 / 3, 12);
  });

  it("breaks a tie between label counts towards more labels", () => {
    const r = interReviewerAgreement([
      [true, true],
      [false, true],
      [true, true, true],
      [false, false, false],
    ])!;
    expect(r).toMatchObject({ method: "fleiss", items: 2, agreement: 1, kappa: 1 });
  });

  it("has nothing to say with fewer than two items to compare", () => {
    expect(interReviewerAgreement([])).toBeNull();
    expect(interReviewerAgreement([[true], [false], [true, false]])).toBeNull();
    // Three-label items are the usual count, but only one of them: the two-label item cannot join.
    expect(
      interReviewerAgreement([
        [true, true, false],
        [true, false],
      ]),
    ).toBeNull();
  });
});

describe("judgeStatus", () => {
  const textbook = agreementOf(pairsOf(confusion(20, 5, 10, 15)));
  const lower = textbook.kappa_ci95![0];

  it("is uncalibrated below the minimum number of labels, whatever kappa says", () => {
    expect(judgeStatus(textbook, { minLabels: 51, trustedKappa: 0 })).toBe("uncalibrated");
    expect(judgeStatus(textbook, { minLabels: 50, trustedKappa: 0 })).toBe("trusted");
  });

  it("trusts a judge from the interval's lower end, not from kappa itself", () => {
    expect(judgeStatus(textbook, { minLabels: 50, trustedKappa: lower })).toBe("trusted");
    expect(judgeStatus(textbook, { minLabels: 50, trustedKappa: lower + 1e-9 })).toBe("doubtful");
    // κ = 0.4 itself clears 0.3, but its interval starts near 0.15.
    expect(judgeStatus(textbook, { minLabels: 20, trustedKappa: 0.3 })).toBe("doubtful");
  });

  it("doubts 20 perfect labels at the top threshold, trusts them at their interval's lower end, and doubts an undefined kappa", () => {
    const perfect = agreementOf(pairsOf(confusion(12, 0, 0, 8)));
    expect(judgeStatus(perfect, { minLabels: 20, trustedKappa: 1 })).toBe("doubtful");
    expect(judgeStatus(perfect, { minLabels: 20, trustedKappa: perfect.kappa_ci95![0] })).toBe("trusted");
    expect(judgeStatus(agreementOf(pairsOf(confusion(30, 0, 0, 0))), { minLabels: 20, trustedKappa: 0 })).toBe("doubtful");
  });
});
