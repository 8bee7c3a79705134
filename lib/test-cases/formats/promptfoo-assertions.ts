/**
 * promptfoo assertions ↔ Assay checks. A case's checks combine by its `mode` (all must pass, or
 * any); one contains_phrases check passes only when all its phrases appear. So:
 * - `contains` / `icontains` → one phrase (case-sensitive or not); `contains-all` / `icontains-all`
 *   → one check with all the phrases.
 * - `contains-any` / `icontains-any`, and `similar` with several values, mean "any of": one check
 *   per value with the case's mode `any` — only when it is the case's only assertion (mode any
 *   would otherwise weaken the others); else not carried over, saying why. `assert-set` with a
 *   threshold that one assertion of it meets is the same "any of" (what the export writes).
 * - `similar` → semantic_similarity with its threshold (promptfoo's default 0.75).
 * - `factuality` (a reference answer) → llm_judge against it without criteria: Assay's default
 *   judge asks exactly that (the same essential information, nothing contradicting it).
 * - `llm-rubric` / `model-graded-closedqa` (a rubric or criterion) → llm_judge whose criteria is
 *   the rubric; the expected answer is the one written after "Expected answer:" in the rubric (how
 *   the export writes both), else a sentence pointing the judge at the criteria.
 * - `llm-rubric` with `metric: "outcome:<label>"` → the expected outcome `<label>` (how the export
 *   writes expected outcomes, which promptfoo grades as rubrics).
 * - `not-*` and everything else is not carried over, each with its reason.
 */
import type { Check } from "@/lib/test-cases/schemas";
import type { DroppedField } from "./types";
import { asRecord, asText, isNonEmptyString, type Json } from "./shared";

export const RUBRIC_ANSWER = "An answer that meets the evaluation criteria.";
const ANSWER_MARK = "\n\nExpected answer: ";
export const OUTCOME_METRIC = "outcome:";

const REASONS: Record<string, string> = {
  equals: "an exact-match assertion; Assay checks phrases, similarity or a judge's verdict — use contains_phrases or an llm_judge check",
  regex: "regular expressions are not an Assay check",
  "starts-with": "a prefix assertion; Assay checks phrases anywhere in the answer",
  "is-json": "JSON validity is not an Assay check",
  "contains-json": "JSON validity is not an Assay check",
  "is-valid-openai-tools-call": "Assay checks tool calls as the case's expected tool calls, not as an assertion",
  "is-valid-openai-function-call": "Assay checks tool calls as the case's expected tool calls, not as an assertion",
  javascript: "javascript assertions run code; Assay has no code checks",
  python: "python assertions run code; Assay has no code checks",
  webhook: "webhook assertions call a service; Assay has no such check",
  cost: "Assay reports each result's cost on the run page but does not fail a case on it",
  latency: "Assay measures latency on the run page but does not fail a case on it",
  perplexity: "perplexity needs the model's log-probabilities; not an Assay check",
  "perplexity-score": "perplexity needs the model's log-probabilities; not an Assay check",
  levenshtein: "edit distance is not an Assay check; semantic_similarity is the closest",
  "rouge-n": "ROUGE is not an Assay check; semantic_similarity is the closest",
  bleu: "BLEU is not an Assay check; semantic_similarity is the closest",
  "answer-relevance": "a RAG metric; use the suite's metrics instead",
  "context-faithfulness": "a RAG metric; use the suite's metrics instead",
  "context-recall": "a RAG metric; use the suite's metrics instead",
  "context-relevance": "a RAG metric; use the suite's metrics instead",
  moderation: "moderation APIs are not an Assay check",
  "select-best": "compares the outputs of several prompts; Assay runs one agent per case",
  classifier: "a classifier model is not an Assay check",
};

type Rendered = (text: string) => string;

export type MappedAssertions = { checks: Check[]; mode: "all" | "any"; outcomes: Record<string, string>; ground_truth: string | null };

/** The assertions of one test (defaultTest's first) → checks, mode and expected outcomes; the rest reported. */
export function mapAssertions(asserts: unknown[], render: Rendered, mapped: string[], dropped: DroppedField[]): MappedAssertions {
  const out: MappedAssertions = { checks: [], mode: "all", outcomes: {}, ground_truth: null };
  // Expected outcomes are graded apart from the checks: only the other assertions count for "alone".
  const alone = asserts.filter((a) => !isOutcome(asRecord(a))).length === 1;
  asserts.forEach((raw, k) => {
    const where = `assert[${k}]`;
    const a = asRecord(raw);
    const type = isNonEmptyString(a?.type) ? a.type : null;
    if (!a || !type) return dropped.push({ field: where, reason: "an assertion without a type" });
    if (a.weight !== undefined && a.weight !== 1) dropped.push({ field: `${where}.weight`, reason: "Assay's checks are not weighted" });
    if (a.transform !== undefined) dropped.push({ field: `${where}.transform`, reason: "Assay checks the agent's answer as it is" });
    if (a.provider !== undefined) dropped.push({ field: `${where}.provider`, reason: "Assay grades with the suite's judge model" });
    const anyOf = (checks: Check[], label: string) => {
      if (!alone)
        return dropped.push({
          field: where,
          reason: `${type} means "any of"; Assay can say that only for a case whose checks are all alternatives, and this test has other assertions`,
        });
      out.checks.push(...checks);
      out.mode = "any";
      mapped.push(`${where} ${type} → ${label} with mode any`);
    };
    const values = (Array.isArray(a.value) ? a.value : [a.value]).filter((v) => v != null).map((v) => render(asText(v)));
    if (type.startsWith("not-"))
      return dropped.push({ field: where, reason: `${type}: a negated assertion; Assay's checks can only require, not forbid` });
    switch (type) {
      case "contains":
      case "icontains":
      case "contains-all":
      case "icontains-all": {
        if (values.length === 0 || values.some((v) => v === "")) return dropped.push({ field: where, reason: "no phrase to look for" });
        out.checks.push({ type: "contains_phrases", phrases: values, case_sensitive: !type.startsWith("i") });
        return mapped.push(`${where} ${type} → checks contains_phrases (${type.startsWith("i") ? "case-insensitive" : "case-sensitive"})`);
      }
      case "contains-any":
      case "icontains-any": {
        if (values.length === 0) return dropped.push({ field: where, reason: "no phrase to look for" });
        const sensitive = !type.startsWith("i");
        return anyOf(
          values.map((v) => ({ type: "contains_phrases", phrases: [v], case_sensitive: sensitive })),
          `one contains_phrases check per phrase`,
        );
      }
      case "similar": {
        const threshold = typeof a.threshold === "number" && a.threshold >= 0 && a.threshold <= 1 ? a.threshold : 0.75;
        const checks: Check[] = values.map((v) => ({ type: "semantic_similarity", expected_answer: v, threshold }));
        if (checks.length === 0) return dropped.push({ field: where, reason: "no expected text to compare with" });
        if (checks.length > 1) return anyOf(checks, "one semantic_similarity check per value");
        out.checks.push(checks[0]!);
        return mapped.push(`${where} similar → checks semantic_similarity (threshold ${threshold})`);
      }
      case "factuality": {
        if (!values[0]) return dropped.push({ field: where, reason: "no reference answer" });
        out.checks.push({ type: "llm_judge", expected_answer: values[0], criteria: null });
        out.ground_truth ??= values[0];
        return mapped.push(`${where} factuality → checks llm_judge against the reference (and ground_truth)`);
      }
      case "llm-rubric":
      case "model-graded-closedqa": {
        if (!values[0]) return dropped.push({ field: where, reason: "an empty rubric" });
        if (isOutcome(a)) {
          const metric = a.metric as string;
          out.outcomes[metric.slice(OUTCOME_METRIC.length)] = values[0];
          return mapped.push(`${where} llm-rubric (metric ${metric}) → expected_outcomes`);
        }
        const mark = values[0].lastIndexOf(ANSWER_MARK);
        const criteria = mark > 0 ? values[0].slice(0, mark) : values[0];
        const answer = mark > 0 ? values[0].slice(mark + ANSWER_MARK.length) : RUBRIC_ANSWER;
        out.checks.push({ type: "llm_judge", expected_answer: answer, criteria });
        return mapped.push(`${where} ${type} → checks llm_judge (the rubric as its criteria)`);
      }
      case "assert-set": {
        const inner = Array.isArray(a.assert) ? a.assert : [];
        const threshold = typeof a.threshold === "number" ? a.threshold : 1;
        const sub: MappedAssertions = mapAssertions(inner, render, [], dropped);
        const anyOne = inner.length > 0 && threshold <= 1 / inner.length + 1e-9;
        if (anyOne && sub.checks.length === inner.length) return anyOf(sub.checks, `${sub.checks.length} checks`);
        if (threshold >= 1 && sub.checks.length === inner.length && sub.mode === "all") {
          out.checks.push(...sub.checks);
          return mapped.push(`${where} assert-set (all) → ${sub.checks.length} checks`);
        }
        return dropped.push({ field: where, reason: "an assert-set with a partial threshold; Assay's checks pass all or any" });
      }
      default:
        return dropped.push({ field: where, reason: REASONS[type] ?? `${type} assertions have no Assay check` });
    }
  });
  return out;
}

function isOutcome(a: Json | null): boolean {
  return (
    a?.type === "llm-rubric" && isNonEmptyString(a.metric) && a.metric.startsWith(OUTCOME_METRIC) && a.metric.length > OUTCOME_METRIC.length
  );
}

/** Checks (with the case's mode) and expected outcomes → promptfoo assertions the importer maps back to the same. */
export function toAssertions(checks: Check[], mode: "all" | "any", outcomes: Record<string, unknown> | null): Json[] {
  const asserts: Json[] = checks.map((c) => {
    if (c.type === "contains_phrases") {
      const type = c.phrases.length === 1 ? "contains" : "contains-all";
      return { type: c.case_sensitive ? type : `i${type}`, value: c.phrases.length === 1 ? c.phrases[0] : c.phrases };
    }
    if (c.type === "semantic_similarity") return { type: "similar", value: c.expected_answer, threshold: c.threshold };
    if (!c.criteria) return { type: "factuality", value: c.expected_answer };
    const value = c.expected_answer === RUBRIC_ANSWER ? c.criteria : `${c.criteria}${ANSWER_MARK}${c.expected_answer}`;
    return { type: "llm-rubric", value };
  });
  const combined =
    mode === "any" && asserts.length > 1 ? [{ type: "assert-set", threshold: 1 / asserts.length, assert: asserts }] : asserts;
  const graded = Object.entries(outcomes ?? {}).map(([label, v]) => ({
    type: "llm-rubric",
    value: asText(v),
    metric: `${OUTCOME_METRIC}${label}`,
  }));
  return [...combined, ...graded];
}
