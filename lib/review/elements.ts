/**
 * The judged elements of a case result — what a reviewer may label beyond the overall verdict:
 * each expected outcome (by label), each `llm_judge` check (by its index in the case's checks)
 * and each metric (by name) — with what the judge said of each. Read from the result's snapshot
 * of the case and its stored verdicts; pure, so the review service, the calibration and the
 * pages agree on them.
 */
import type { IssueList } from "@/lib/errors";
import type { LabelInput } from "./schemas";

export const ELEMENT_LEVELS = ["outcomes", "checks", "metrics"] as const;
export type ElementLevel = (typeof ELEMENT_LEVELS)[number];

/** One judged element: its key (outcome label, check index, metric name), what it expects, and the judge's verdict. */
export type JudgedElement = {
  key: string;
  /** What the reviewer reads: the outcome's label, the check's criteria or expected answer, the metric's name. */
  label: string;
  /** The outcome's expected value, the check's expected answer (null for metrics). */
  expected: unknown;
  /** The judge's verdict: met (true), not met (false), or none (it could not decide, or was never asked). */
  judge_met: boolean | null;
  judge_reasoning: string | null;
};
export type JudgedElements = Record<ElementLevel, JudgedElement[]>;

type ResultVerdicts = {
  caseSnapshot: unknown;
  checkResults: unknown;
  outcomeResults: unknown;
  metricResults: unknown;
};

const list = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === "object" && x !== null) : [];
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === "boolean" ? v : null);

/** The outcome, check and metric elements of a result, in the case's order. */
export function judgedElements(r: ResultVerdicts): JudgedElements {
  const snapshot = (r.caseSnapshot ?? {}) as { expected_outcomes?: unknown; checks?: unknown };
  const outcomeResults = list(r.outcomeResults);
  const expected =
    snapshot.expected_outcomes && typeof snapshot.expected_outcomes === "object"
      ? (snapshot.expected_outcomes as Record<string, unknown>)
      : {};
  const outcomes = Object.entries(expected).map(([label, value]): JudgedElement => {
    const verdict = outcomeResults.find((o) => o.label === label);
    return { key: label, label, expected: value, judge_met: bool(verdict?.passed), judge_reasoning: text(verdict?.reasoning) };
  });

  const checkResults = list(r.checkResults);
  const checks = list(snapshot.checks).flatMap((check, index): JudgedElement[] => {
    if (check.type !== "llm_judge") return [];
    const verdict = checkResults.find((c) => c.check_index === index);
    const details = (verdict?.details ?? {}) as Record<string, unknown>;
    const decided = verdict && !details.error ? bool(verdict.passed) : null;
    return [
      {
        key: String(index),
        label: text(check.criteria) ?? `Check ${index + 1}: matches the expected answer`,
        expected: check.expected_answer ?? null,
        judge_met: decided,
        judge_reasoning: text(details.reasoning) ?? text(details.error),
      },
    ];
  });

  const metrics = list(r.metricResults).flatMap((m): JudgedElement[] => {
    const name = text(m.metric_name);
    return name ? [{ key: name, label: name, expected: null, judge_met: bool(m.passed), judge_reasoning: text(m.reasoning) }] : [];
  });
  return { outcomes, checks, metrics };
}

/** A label's element verdicts must name elements the case has: one issue per unknown key, with its path. */
export function unknownElementIssues(input: Pick<LabelInput, ElementLevel>, elements: JudgedElements): IssueList {
  const issues: IssueList = [];
  for (const level of ELEMENT_LEVELS) {
    const known = new Set(elements[level].map((e) => e.key));
    for (const key of Object.keys(input[level] ?? {})) {
      if (!known.has(key)) issues.push({ path: `${level}.${key}`, message: `This case has no ${level.slice(0, -1)} "${key}" to label` });
    }
  }
  return issues;
}

/** The judge's overall verdict of a result: pass, fail, or null when it gave none (an error, a skipped case). */
export function judgeVerdictOf(status: string): "pass" | "fail" | null {
  return status === "passed" ? "pass" : status === "failed" ? "fail" : null;
}

/** The status a result counts as: the human verdict when there is one, else the judge's (its status). */
export function effectiveStatusOf<S extends string>(status: S, humanVerdict: "pass" | "fail" | null): S | "passed" | "failed" {
  return humanVerdict === "pass" ? "passed" : humanVerdict === "fail" ? "failed" : status;
}

/** The human side of a case result, as the run page and the case view show it. */
export function humanVerdictFields<S extends string>(r: {
  status: S;
  humanVerdict: "pass" | "fail" | null;
  humanVerdictById: string | null;
  humanVerdictAt: Date | null;
}) {
  const judge = judgeVerdictOf(r.status);
  return {
    human_verdict: r.humanVerdict,
    human_verdict_by_id: r.humanVerdictById,
    human_verdict_at: r.humanVerdictAt ? r.humanVerdictAt.toISOString() : null,
    effective_status: effectiveStatusOf(r.status, r.humanVerdict),
    overturned: Boolean(r.humanVerdict && judge && r.humanVerdict !== judge),
  };
}
