/** The reference schema checks: contains_phrases, semantic_similarity, llm_judge; combined by mode all/any. */
import type { Check } from "@/lib/test-cases/schemas";
import { VERDICT_SCHEMA, callEmbed, callJson, errorMessage, parseJsonObject, readVerdict, type EvalCache } from "./llm-json";
import type { CheckResult, EvalChatMessage, EvalJsonRequest, EvalLlm } from "./types";

type ContainsCheck = Extract<Check, { type: "contains_phrases" }>;
type SimilarityCheck = Extract<Check, { type: "semantic_similarity" }>;
type JudgeCheck = Extract<Check, { type: "llm_judge" }>;

export const CHECK_SCHEMA_NAME = "check_verdict";

/**
 * Text form used for phrase matching. Always NFC (a precomposed "é" equals "e" + combining
 * accent). Case-insensitive matching also folds compatibility forms (NFKC: "ﬁ" → "fi",
 * full-width letters) and case via upper-then-lower ("ß" ≈ "ss", final sigma ≈ sigma).
 */
export function foldForMatch(text: string, caseSensitive: boolean): string {
  if (caseSensitive) return text.normalize("NFC");
  return text.normalize("NFKC").toUpperCase().toLowerCase().replace(/ς/g, "σ").normalize("NFC");
}

export function evaluateContainsPhrases(check: ContainsCheck, response: string | null, index: number): CheckResult {
  const caseSensitive = check.case_sensitive ?? false;
  const haystack = foldForMatch(response ?? "", caseSensitive);
  const matched: string[] = [];
  const missing: string[] = [];
  for (const phrase of check.phrases) {
    (haystack.includes(foldForMatch(phrase, caseSensitive)) ? matched : missing).push(phrase);
  }
  return {
    check_index: index,
    check_type: "contains_phrases",
    passed: missing.length === 0,
    details: { matched_phrases: matched, missing_phrases: missing, case_sensitive: caseSensitive },
  };
}

/**
 * Cosine similarity in [-1, 1]. A zero vector has no direction: its similarity to anything is 0.
 * Vectors of different lengths or with non-finite values are an error.
 */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`Embedding lengths differ (${a.length} vs ${b.length})`);
  if (a.length === 0) throw new Error("Empty embedding");
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? NaN;
    const y = b[i] ?? NaN;
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new Error("Embedding contains a non-finite value");
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0) return 0;
  return Math.max(-1, Math.min(1, dot / (Math.sqrt(na) * Math.sqrt(nb))));
}

export async function evaluateSemanticSimilarity(
  check: SimilarityCheck,
  response: string | null,
  index: number,
  llm: EvalLlm,
  cache?: EvalCache | null,
): Promise<CheckResult> {
  const base = { check_index: index, check_type: "semantic_similarity" as const };
  if (!response || response.trim() === "") {
    return { ...base, passed: false, details: { similarity_score: 0, threshold: check.threshold } };
  }
  try {
    const vectors = await callEmbed(llm, [check.expected_answer, response], cache);
    const [expected, actual] = vectors;
    if (vectors.length !== 2 || !expected || !actual) throw new Error(`Expected 2 embeddings, got ${vectors.length}`);
    const score = cosineSimilarity(expected, actual);
    return {
      ...base,
      passed: score >= check.threshold,
      details: { similarity_score: Math.round(score * 1e6) / 1e6, threshold: check.threshold },
    };
  } catch (err) {
    return {
      ...base,
      passed: false,
      details: { threshold: check.threshold, error: `Embedding failed: ${errorMessage(err)}` },
    };
  }
}

export type CheckJudgeInput = { question: string | null; response: string | null };

/** The exact request of an llm_judge check (exposed for tests and "why did the judge say that?"). */
export function buildCheckJudgeRequest(check: JudgeCheck, input: CheckJudgeInput): EvalJsonRequest {
  const system = [
    "You are an impartial evaluator of an AI agent's answer.",
    "Compare the agent's actual response with the expected answer and decide whether the actual response is acceptable.",
    check.criteria
      ? "Apply the evaluation criteria given by the test author."
      : "The response passes when it conveys the same essential information as the expected answer, without contradicting it; wording, length and style may differ.",
    'First write your reasoning, then give the verdict: "pass" or "fail". Answer in the required JSON format only.',
  ].join("\n");
  const sections = [
    `## User's question\n${input.question?.trim() || "(not available)"}`,
    `## Expected answer\n${check.expected_answer}`,
    ...(check.criteria ? [`## Evaluation criteria\n${check.criteria}`] : []),
    `## Actual response of the agent\n${input.response?.trim() ? input.response : "(the agent gave no response)"}`,
  ];
  const messages: EvalChatMessage[] = [
    { role: "system", content: system },
    { role: "user", content: sections.join("\n\n") },
  ];
  return { purpose: "check", messages, schemaName: CHECK_SCHEMA_NAME, schema: VERDICT_SCHEMA };
}

export async function evaluateLlmJudgeCheck(
  check: JudgeCheck,
  input: CheckJudgeInput,
  index: number,
  llm: EvalLlm,
  cache?: EvalCache | null,
  timeoutMs?: number,
): Promise<CheckResult> {
  const base = { check_index: index, check_type: "llm_judge" as const };
  const req = buildCheckJudgeRequest(check, input);
  if (timeoutMs) req.timeoutMs = timeoutMs;
  let raw: string;
  try {
    raw = (await callJson(llm, req, cache)).raw;
  } catch (err) {
    return { ...base, passed: false, details: { error: `Judge call failed: ${errorMessage(err)}` } };
  }
  const parsed = parseJsonObject(raw);
  const verdict = parsed.ok ? readVerdict(parsed.value, "Judge reply") : parsed;
  if (!verdict.ok) return { ...base, passed: false, details: { error: verdict.error } };
  return {
    ...base,
    passed: verdict.value.verdict === "pass",
    details: { judgement: verdict.value.verdict, reasoning: verdict.value.reasoning },
  };
}

export type CheckContext = {
  response: string | null;
  question: string | null;
  llm: EvalLlm;
  cache?: EvalCache | null;
  timeoutMs?: number;
};

/** Runs every check concurrently; results are in check order. */
export function evaluateChecks(checks: readonly Check[], ctx: CheckContext): Promise<CheckResult[]> {
  return Promise.all(
    checks.map((check, i) => {
      switch (check.type) {
        case "contains_phrases":
          return Promise.resolve(evaluateContainsPhrases(check, ctx.response, i));
        case "semantic_similarity":
          return evaluateSemanticSimilarity(check, ctx.response, i, ctx.llm, ctx.cache);
        case "llm_judge":
          return evaluateLlmJudgeCheck(check, { question: ctx.question, response: ctx.response }, i, ctx.llm, ctx.cache, ctx.timeoutMs);
      }
    }),
  );
}

/** The reference schema mode: "all" → every check passed, "any" → at least one; no checks → satisfied. */
export function checksSatisfied(results: readonly CheckResult[], mode: "all" | "any"): boolean {
  if (results.length === 0) return true;
  return mode === "all" ? results.every((r) => r.passed) : results.some((r) => r.passed);
}
