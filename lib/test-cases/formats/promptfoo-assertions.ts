/**
 * promptfoo assertions ↔ Assay checks (lib/evaluation/checks.ts). In Assay one contains_phrases
 * check passes only when ALL its phrases appear, and a case's checks combine by its `mode`: all
 * must pass, or any one. Expected outcomes are judged apart from the checks. So:
 * - `contains` / `icontains` → a check with one phrase (case-sensitive or not); `contains-all` /
 *   `icontains-all` → one check with all the phrases (a string value is split on commas, as
 *   promptfoo does).
 * - "Any of" — `contains-any` / `icontains-any`, `similar` with several values, an `assert-set`
 *   whose threshold one of its n assertions meets (1/n) — becomes one check per alternative with
 *   the case's mode `any`, but only when those are ALL the case's checks: mode any would let the
 *   alternatives stand in for any other check. Otherwise it is not carried over, saying why.
 * - `similar` (`similar:cosine`) → semantic_similarity at its threshold (promptfoo's default 0.75).
 * - Assay's llm_judge shows the judge the expected answer and, when set, the criteria:
 *   `llm-rubric`, `model-graded-closedqa`, `g-eval` grade the answer against a rubric only, so the
 *   rubric becomes the criteria and the expected answer a sentence pointing at it (RUBRIC_ANSWER),
 *   or the answer written after "Expected answer:" in the rubric (how the export writes a judge
 *   with both). `factuality` (a reference answer) → llm_judge against the reference with
 *   FACTUALITY_CRITERIA: promptfoo passes a subset or superset of the reference and fails only a
 *   contradiction. A rubric that is exactly SAME_INFORMATION is a judge without criteria (Assay's
 *   default question, which the export writes out for promptfoo's grader).
 * - `llm-rubric` with `metric: "outcome:<label>"` → the expected outcome `<label>` (how the export
 *   writes expected outcomes).
 * - `not-*` and every other type is not carried over, each with its reason; so are an assertion's
 *   weight, metric name, grading provider, transform and (except for `similar`) threshold.
 * Values are rendered with the test's vars (`{{var}}`) and a `file://` value is read from the zip.
 * CSV tests write assertions as shorthand (`contains: foo`, `similar(0.8): …`): parseShorthand.
 */
import type { Check } from "@/lib/test-cases/schemas";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import type { DroppedField } from "./types";
import { asRecord, asText, isNonEmptyString, type Json } from "./shared";

/** The expected answer of a judge check made from a rubric: the rubric (its criteria) says what passes. */
export const RUBRIC_ANSWER = "An answer that meets the evaluation criteria.";
/** Assay's default judge question as a rubric: read back as a judge without criteria. */
export const SAME_INFORMATION =
  "The response conveys the same essential information as the expected answer, without contradicting it; wording, length and style may differ.";
/** What promptfoo's factuality grader accepts: a subset, a superset or the same facts; a contradiction fails. */
export const FACTUALITY_CRITERIA =
  "The answer is factually consistent with the expected answer: it may leave details out or add some, but must not contradict it.";
const ANSWER_MARK = "\n\nExpected answer: ";
export const OUTCOME_METRIC = "outcome:";
const MAX_CHECKS = 50;
const DEFAULT_SIMILARITY = 0.75;

const CODE = "assertions run code; Assay has no code checks";
const RAG = "a RAG metric over retrieved context; Assay's cases have no retrieval context to grade";
const REASONS: Record<string, string> = {
  equals: "an exact-match assertion; Assay checks phrases, similarity or a judge's verdict (contains_phrases is the closest)",
  regex: "regular expressions are not an Assay check",
  "starts-with": "a prefix assertion; Assay's contains_phrases finds phrases anywhere in the answer",
  "is-json": "JSON validity is not an Assay check",
  "contains-json": "JSON validity is not an Assay check",
  "is-xml": "XML validity is not an Assay check",
  "contains-xml": "XML validity is not an Assay check",
  "is-sql": "SQL validity is not an Assay check",
  "contains-sql": "SQL validity is not an Assay check",
  "is-valid-openai-tools-call": "Assay checks tool calls as the case's expected tool calls (add them on the case), not as an assertion",
  "is-valid-openai-function-call": "Assay checks tool calls as the case's expected tool calls (add them on the case), not as an assertion",
  "is-valid-function-call": "Assay checks tool calls as the case's expected tool calls (add them on the case), not as an assertion",
  "tool-call-f1": "Assay checks tool calls as the case's expected tool calls (add them on the case), not as an assertion",
  javascript: `javascript ${CODE}`,
  python: `python ${CODE}`,
  ruby: `ruby ${CODE}`,
  webhook: "webhook assertions call your service to grade; Assay has no such check",
  cost: "cost: Assay reports each result's cost on the run page but does not fail a case on it",
  latency: "latency: Assay measures latency on the run page but does not fail a case on it",
  perplexity: "perplexity needs the model's log-probabilities, which Assay does not record",
  "perplexity-score": "perplexity needs the model's log-probabilities, which Assay does not record",
  levenshtein: "edit distance is not an Assay check; semantic_similarity is the closest",
  "rouge-n": "ROUGE is not an Assay check; semantic_similarity is the closest",
  bleu: "BLEU is not an Assay check; semantic_similarity is the closest",
  gleu: "GLEU is not an Assay check; semantic_similarity is the closest",
  meteor: "METEOR is not an Assay check; semantic_similarity is the closest",
  "similar:dot": "Assay's semantic_similarity compares by cosine similarity, not dot product",
  "similar:euclidean": "Assay's semantic_similarity compares by cosine similarity, not euclidean distance",
  "answer-relevance": "answer relevance is one of the suite's metrics in Assay, not a per-case check",
  "context-faithfulness": RAG,
  "context-recall": RAG,
  "context-relevance": RAG,
  "conversation-relevance": "conversation relevance is one of the suite's metrics in Assay, not a per-case check",
  moderation: "moderation APIs are not an Assay check",
  classifier: "a classifier model is not an Assay check",
  "is-refusal": "refusal detection is not an Assay check; an llm_judge check can ask for it",
  "finish-reason": "Assay does not record the model's finish reason",
  "select-best": "compares the outputs of several prompts; Assay runs one agent per case",
  "max-score": "compares the outputs of several prompts; Assay runs one agent per case",
  human: "a human grade; use Assay's review queue",
};

/** An assertion as found, with where it is in the source (e.g. `defaultTest.assert[0]`, `assert[2]`). */
export type SourceAssertion = { where: string; value: unknown };

export type AssertionContext = {
  /** `{{var}}` rendering with the test's vars. */
  render: (text: string) => string;
  /** A `file://` value's text from the zip, or why it cannot be read. */
  readFile: (ref: string) => { text: string } | { error: string };
  mapped: string[];
  dropped: DroppedField[];
};

export type MappedAssertions = {
  checks: Check[];
  mode: "all" | "any";
  outcomes: Record<string, string>;
  factualityReference: string | null;
};

/** Alternatives of one "any of" assertion: usable only as the case's whole set of checks. */
type AnyOf = { where: string; type: string; checks: Check[] };
type Collected = { plain: Check[]; anyOf: AnyOf[]; outcomes: Record<string, string>; reference: string | null };

/** The assertions of one test (defaultTest's first) → checks, mode and expected outcomes; the rest reported. */
export function mapAssertions(asserts: SourceAssertion[], ctx: AssertionContext): MappedAssertions {
  const got = collect(asserts, ctx);
  const out: MappedAssertions = { checks: got.plain, mode: "all", outcomes: got.outcomes, factualityReference: got.reference };
  if (got.anyOf.length === 1 && got.plain.length === 0) {
    const [group] = got.anyOf as [AnyOf];
    out.checks = group.checks;
    out.mode = "any";
    ctx.mapped.push(`${group.where} ${group.type} → ${group.checks.length} checks with mode any (any one passes)`);
  } else {
    for (const group of got.anyOf) {
      ctx.dropped.push({
        field: group.where,
        reason: `${group.type} passes when any one of its values does; Assay can say "any" only for a case whose checks are all alternatives of one assertion, and this test has other checks`,
      });
    }
  }
  if (out.checks.length > MAX_CHECKS) {
    ctx.dropped.push({ field: "assert", reason: `only the first ${MAX_CHECKS} checks are kept (Assay's limit per case)` });
    out.checks = out.checks.slice(0, MAX_CHECKS);
  }
  return out;
}

function collect(asserts: SourceAssertion[], ctx: AssertionContext): Collected {
  const got: Collected = { plain: [], anyOf: [], outcomes: {}, reference: null };
  for (const { where, value } of asserts) mapOne(where, asRecord(value), ctx, got);
  return got;
}

function mapOne(where: string, a: Json | null, ctx: AssertionContext, got: Collected) {
  const { mapped, dropped } = ctx;
  const type = isNonEmptyString(a?.type) ? a.type.trim() : null;
  if (!a || !type) return dropped.push({ field: where, reason: "an assertion without a type" });
  if (type.startsWith("not-")) {
    return dropped.push({
      field: where,
      reason: `${type} forbids something in the answer; Assay's checks can only require it (an expected outcome with value false can state what must not happen)`,
    });
  }
  if (type === "assert-set") return mapAssertSet(where, a, ctx, got);
  const kind = KINDS[type];
  if (!kind) return dropped.push({ field: where, reason: REASONS[type] ?? `${type} assertions have no Assay check` });
  reportExtras(where, a, type, dropped);
  const values = readValues(where, a.value, /-(all|any)$/.test(type), ctx);
  if (values === null) return;
  if (values.length === 0 || values.some((v) => v.trim() === "")) {
    return dropped.push({ field: where, reason: `${type} has no value to check against` });
  }
  const tooLong = values.find((v) => v.length > LIMIT[kind]);
  if (tooLong !== undefined) {
    return dropped.push({
      field: where,
      reason: `its value is longer than ${LIMIT[kind].toLocaleString("en-US")} characters, Assay's limit`,
    });
  }
  const sensitive = !type.startsWith("i");
  switch (kind) {
    case "phrases-all":
      got.plain.push({ type: "contains_phrases", phrases: values, case_sensitive: sensitive });
      return mapped.push(`${where} ${type} → contains_phrases (${sensitive ? "case-sensitive" : "case-insensitive"})`);
    case "phrases-any":
      return anyOf(
        where,
        type,
        values.map((v) => ({ type: "contains_phrases", phrases: [v], case_sensitive: sensitive })),
        got,
        mapped,
      );
    case "similar": {
      const threshold = typeof a.threshold === "number" && a.threshold >= 0 && a.threshold <= 1 ? a.threshold : DEFAULT_SIMILARITY;
      const checks: Check[] = values.map((v) => ({ type: "semantic_similarity", expected_answer: v, threshold }));
      return anyOf(where, type, checks, got, mapped, `semantic_similarity (threshold ${threshold})`);
    }
    case "factuality":
      got.plain.push({ type: "llm_judge", expected_answer: values[0]!, criteria: FACTUALITY_CRITERIA });
      got.reference ??= values[0]!;
      return mapped.push(`${where} ${type} → llm_judge against the reference answer (contradictions fail)`);
    case "rubric":
      if (isOutcome(a)) {
        const metric = a.metric as string;
        got.outcomes[metric.slice(OUTCOME_METRIC.length)] = values[0]!;
        return mapped.push(`${where} ${type} (metric ${metric}) → expected_outcomes`);
      }
      got.plain.push(judgeFromRubric(values[0]!));
      return mapped.push(`${where} ${type} → llm_judge (the rubric as its criteria)`);
  }
}

type Kind = "phrases-all" | "phrases-any" | "similar" | "factuality" | "rubric";
const KINDS: Record<string, Kind> = {
  contains: "phrases-all",
  icontains: "phrases-all",
  "contains-all": "phrases-all",
  "icontains-all": "phrases-all",
  "contains-any": "phrases-any",
  "icontains-any": "phrases-any",
  similar: "similar",
  "similar:cosine": "similar",
  factuality: "factuality",
  "model-graded-factuality": "factuality",
  "llm-rubric": "rubric",
  "model-graded-closedqa": "rubric",
  "g-eval": "rubric",
};
const LIMIT: Record<Kind, number> = {
  "phrases-all": TEXT_LIMITS.description,
  "phrases-any": TEXT_LIMITS.description,
  similar: TEXT_LIMITS.prompt,
  factuality: TEXT_LIMITS.prompt,
  rubric: TEXT_LIMITS.description,
};

/** One check stands alone; several alternatives wait to see whether they are the case's only checks. */
function anyOf(where: string, type: string, checks: Check[], got: Collected, mapped: string[], what: string = checks[0]!.type) {
  if (checks.length === 1) {
    got.plain.push(checks[0]!);
    return mapped.push(`${where} ${type} → ${what}`);
  }
  got.anyOf.push({ where, type, checks });
}

/** The parts of an assertion Assay has no place for. */
function reportExtras(where: string, a: Json, type: string, dropped: DroppedField[]) {
  if (a.weight !== undefined && a.weight !== 1) dropped.push({ field: `${where}.weight`, reason: "Assay's checks are not weighted" });
  if (a.threshold !== undefined && KINDS[type] !== "similar")
    dropped.push({
      field: `${where}.threshold`,
      reason: `Assay's ${type === "factuality" ? "judge" : "check"} passes or fails, without a score to reach`,
    });
  if (isNonEmptyString(a.metric) && !isOutcome(a))
    dropped.push({ field: `${where}.metric`, reason: "promptfoo's metric name groups scores; Assay reports each check by its type" });
  if (a.provider !== undefined) dropped.push({ field: `${where}.provider`, reason: "Assay grades with the suite's judge model" });
  if (a.transform !== undefined) dropped.push({ field: `${where}.transform`, reason: "Assay checks the agent's answer as it is" });
  if (a.rubricPrompt !== undefined) dropped.push({ field: `${where}.rubricPrompt`, reason: "Assay's judge uses its own grading prompt" });
}

/** The assertion's values as text: rendered, `file://` read from the zip, comma lists split; null when reported. */
function readValues(where: string, value: unknown, splitCommas: boolean, ctx: AssertionContext): string[] | null {
  const raw = Array.isArray(value) ? value : value == null ? [] : [value];
  const out: string[] = [];
  for (const v of raw) {
    let text = asText(v);
    if (typeof v === "string" && v.startsWith("file://")) {
      const file = ctx.readFile(v);
      if ("error" in file) {
        ctx.dropped.push({ field: where, reason: `its value ${file.error}` });
        return null;
      }
      text = file.text.trim();
      ctx.mapped.push(`${where} value ${v} → read from the zip`);
    }
    const rendered = ctx.render(text);
    if (splitCommas && !Array.isArray(value)) out.push(...rendered.split(",").map((s) => s.trim()));
    else out.push(rendered);
  }
  return out;
}

/**
 * An assert-set: without a threshold (or 1) every assertion of it must pass — its checks are the
 * test's own; with 1/n one of its n must — "any of", when each became a check; else reported.
 */
function mapAssertSet(where: string, a: Json, ctx: AssertionContext, got: Collected) {
  const inner = Array.isArray(a.assert) ? a.assert : [];
  const sub: AssertionContext = { ...ctx, mapped: [], dropped: [] };
  const set = collect(
    inner.map((value, k) => ({ where: `${where}.assert[${k}]`, value })),
    sub,
  );
  const threshold = typeof a.threshold === "number" ? a.threshold : 1;
  const clean = sub.dropped.length === 0 && set.anyOf.length === 0 && Object.keys(set.outcomes).length === 0;
  if (threshold >= 1) {
    ctx.mapped.push(...sub.mapped);
    ctx.dropped.push(...sub.dropped);
    got.plain.push(...set.plain);
    got.anyOf.push(...set.anyOf);
    Object.assign(got.outcomes, set.outcomes);
    got.reference ??= set.reference;
    return;
  }
  if (clean && inner.length > 1 && set.plain.length === inner.length && threshold <= 1 / inner.length + 1e-9) {
    got.reference ??= set.reference;
    return got.anyOf.push({ where, type: "assert-set", checks: set.plain });
  }
  ctx.dropped.push({
    field: where,
    reason: `an assert-set that passes when its score reaches ${threshold}; Assay's checks pass all or any${sub.dropped.length ? ", and some of its assertions have no Assay check" : ""}`,
  });
}

function isOutcome(a: Json | null): boolean {
  return (
    a?.type === "llm-rubric" && isNonEmptyString(a.metric) && a.metric.startsWith(OUTCOME_METRIC) && a.metric.length > OUTCOME_METRIC.length
  );
}

/** A rubric → llm_judge; `criteria\n\nExpected answer: …` (the export's form) gives back both. */
function judgeFromRubric(rubric: string): Check {
  const mark = rubric.lastIndexOf(ANSWER_MARK);
  const criteria = mark > 0 ? rubric.slice(0, mark) : rubric;
  const answer = mark > 0 ? rubric.slice(mark + ANSWER_MARK.length) : RUBRIC_ANSWER;
  if (answer.trim() === "") return { type: "llm_judge", expected_answer: RUBRIC_ANSWER, criteria: rubric };
  return { type: "llm_judge", expected_answer: answer, criteria: criteria === SAME_INFORMATION ? null : criteria };
}

/** A judge check as promptfoo writes it: `factuality` for a reference, else a rubric judgeFromRubric reads back the same. */
function judgeAssertion(c: Extract<Check, { type: "llm_judge" }>): Json {
  if (c.criteria === FACTUALITY_CRITERIA) return { type: "factuality", value: c.expected_answer };
  const criteria = c.criteria ?? SAME_INFORMATION;
  return {
    type: "llm-rubric",
    value: c.expected_answer === RUBRIC_ANSWER && c.criteria ? criteria : `${criteria}${ANSWER_MARK}${c.expected_answer}`,
  };
}

/** An expected outcome as a rubric promptfoo's grader can apply (the value kept exactly by the caller when not text). */
function outcomeRubric(label: string, value: unknown): string {
  if (typeof value === "string") return value;
  if (value === true) return label;
  if (value === false) return `This must not happen: ${label}`;
  return `${label}: ${asText(value)}`;
}

export type ExportedAssertions = { assert: Json[]; anyOfSet: boolean };

/** Checks (with the case's mode) and expected outcomes → promptfoo assertions that mapAssertions reads back the same. */
export function toAssertions(checks: Check[], mode: "all" | "any", outcomes: Record<string, unknown> | null): ExportedAssertions {
  const asserts: Json[] = checks.map((c) => {
    if (c.type === "contains_phrases") {
      const type = c.phrases.length === 1 ? "contains" : "contains-all";
      return { type: c.case_sensitive ? type : `i${type}`, value: c.phrases.length === 1 ? c.phrases[0] : c.phrases };
    }
    if (c.type === "semantic_similarity") return { type: "similar", value: c.expected_answer, threshold: c.threshold };
    return judgeAssertion(c);
  });
  const anyOfSet = mode === "any" && asserts.length > 1;
  const combined = anyOfSet ? [{ type: "assert-set", threshold: 1 / asserts.length, assert: asserts }] : asserts;
  const graded = Object.entries(outcomes ?? {}).map(([label, v]) => ({
    type: "llm-rubric",
    value: outcomeRubric(label, v),
    metric: `${OUTCOME_METRIC}${label}`,
  }));
  return { assert: [...combined, ...graded], anyOfSet };
}

/** Types whose CSV shorthand stands alone, without a value (`is-json`). */
const BARE = new Set(["is-json", "contains-json", "is-xml", "contains-xml", "is-sql", "is-valid-openai-tools-call", "is-refusal"]);
/** CSV aliases: `grade:` is a rubric, `fn:` / `eval:` javascript. */
const ALIASES: Record<string, string> = { grade: "llm-rubric", fn: "javascript", eval: "javascript" };

/**
 * One `__expected` cell of a CSV test: `type: value`, `type(threshold): value` (`similar(0.8): …`),
 * a bare type (`is-json`), a `not-` form; anything else means promptfoo's `equals`.
 */
export function parseShorthand(cell: string): Json {
  const m = /^(not-)?([a-z][a-z0-9-]*?)(?:\(([\d.]+)\))?(?:\s*:\s*([\s\S]*))?$/.exec(cell.trim());
  const type = m ? (ALIASES[m[2]!] ?? m[2]!) : null;
  const known = type !== null && (type in KINDS || type in REASONS);
  if (!m || !known || (m[4] === undefined && !BARE.has(type))) return { type: "equals", value: cell };
  const assertion: Json = { type: `${m[1] ?? ""}${type}` };
  if (m[4] !== undefined) assertion.value = m[4];
  if (m[3]) assertion.threshold = Number(m[3]);
  return assertion;
}
