import { describe, expect, it } from "vitest";
import {
  CHECK_SCHEMA_NAME,
  buildCheckJudgeRequest,
  checksSatisfied,
  cosineSimilarity,
  evaluateChecks,
  evaluateContainsPhrases,
  evaluateLlmJudgeCheck,
  evaluateSemanticSimilarity,
} from "@/lib/evaluation/checks";
import type { CheckResult } from "@/lib/evaluation/types";
import { fakeLlm } from "./helpers";

const contains = (phrases: string[], case_sensitive = false) => ({ type: "contains_phrases" as const, phrases, case_sensitive });

describe("contains_phrases", () => {
  it("reports matched and missing phrases, case-insensitively by default", () => {
    const r = evaluateContainsPhrases(contains(["REFUND", "order 42", "tracking"]), "Your refund for Order 42 is on its way.", 0);
    expect(r.passed).toBe(false);
    expect(r.details).toEqual({ matched_phrases: ["REFUND", "order 42"], missing_phrases: ["tracking"], case_sensitive: false });
  });

  it("passes when every phrase is present", () => {
    const r = evaluateContainsPhrases(contains(["refund", "42"]), "Refund for 42", 3);
    expect(r).toMatchObject({ check_index: 3, check_type: "contains_phrases", passed: true });
    expect(r.details.missing_phrases).toEqual([]);
  });

  it("respects case_sensitive", () => {
    const r = evaluateContainsPhrases(contains(["Refund", "refund"], true), "Refund issued", 0);
    expect(r.details.matched_phrases).toEqual(["Refund"]);
    expect(r.details.missing_phrases).toEqual(["refund"]);
    expect(r.details.case_sensitive).toBe(true);
    expect(r.passed).toBe(false);
  });

  it("matches composed and decomposed unicode, also when case-sensitive", () => {
    const decomposed = "Cafe\u0301 ouvert"; // e + combining acute
    expect(evaluateContainsPhrases(contains(["Café"], true), decomposed, 0).passed).toBe(true);
    expect(evaluateContainsPhrases(contains(["CAFÉ"]), decomposed, 0).passed).toBe(true);
    expect(evaluateContainsPhrases(contains(["CAFÉ"], true), decomposed, 0).passed).toBe(false);
  });

  it("folds unicode case beyond ASCII", () => {
    expect(evaluateContainsPhrases(contains(["STRASSE"]), "Die Hauptstraße 5", 0).passed).toBe(true);
    expect(evaluateContainsPhrases(contains(["ΟΔΟΣ"]), "η οδος είναι", 0).passed).toBe(true);
    expect(evaluateContainsPhrases(contains(["привет"]), "ПРИВЕТ, мир", 0).passed).toBe(true);
    expect(evaluateContainsPhrases(contains(["file"]), "the ﬁle is ready", 0).passed).toBe(true);
    expect(evaluateContainsPhrases(contains(["日本語"]), "これは日本語です", 0).passed).toBe(true);
    expect(evaluateContainsPhrases(contains(["🚀 launch"]), "Ready: 🚀 LAUNCH", 0).passed).toBe(true);
  });

  it("treats a missing response as containing nothing", () => {
    const r = evaluateContainsPhrases(contains(["hello"]), null, 0);
    expect(r.passed).toBe(false);
    expect(r.details.missing_phrases).toEqual(["hello"]);
  });
});

describe("cosineSimilarity", () => {
  it("is 1 for parallel, 0 for orthogonal, -1 for opposite vectors", () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 10);
    expect(cosineSimilarity([1, 0], [0, 5])).toBe(0);
    expect(cosineSimilarity([1, 1], [-1, -1])).toBeCloseTo(-1, 10);
    expect(cosineSimilarity([1, 0], [1, 1])).toBeCloseTo(Math.SQRT1_2, 10);
  });

  it("is 0 when either vector is zero (no NaN)", () => {
    expect(cosineSimilarity([0, 0, 0], [1, 2, 3])).toBe(0);
    expect(cosineSimilarity([0, 0], [0, 0])).toBe(0);
  });

  it("stays within [-1, 1] despite rounding", () => {
    const v = [0.1, 0.2, 0.3, 0.7, 1e-8];
    const s = cosineSimilarity(v, v);
    expect(s).toBeLessThanOrEqual(1);
    expect(s).toBeCloseTo(1, 12);
  });

  it("rejects mismatched lengths, empty and non-finite vectors", () => {
    expect(() => cosineSimilarity([1, 2], [1, 2, 3])).toThrow(/lengths differ/);
    expect(() => cosineSimilarity([], [])).toThrow(/Empty/);
    expect(() => cosineSimilarity([NaN, 1], [1, 1])).toThrow(/non-finite/);
  });
});

describe("semantic_similarity", () => {
  const check = { type: "semantic_similarity" as const, expected_answer: "We open at 9", threshold: 0.8 };
  /** An EvalLlm whose embedder answers these vectors (expected answer's first, then the response's). */
  const embedder = (...vectors: number[][]) =>
    fakeLlm(
      () => "{}",
      () => vectors,
    );

  it("embeds expected and actual, records score and threshold", async () => {
    const llm = embedder([1, 0], [1, 1]);
    const r = await evaluateSemanticSimilarity(check, "Opening hour is 9am", 2, llm);
    expect(llm.embedCalls).toEqual([["We open at 9", "Opening hour is 9am"]]);
    expect(r).toMatchObject({ check_index: 2, check_type: "semantic_similarity", passed: false });
    expect(r.details.similarity_score).toBeCloseTo(0.707107, 5);
    expect(r.details.threshold).toBe(0.8);
  });

  it("passes at or above the threshold", async () => {
    const llm = embedder([1, 0], [2, 0]);
    const r = await evaluateSemanticSimilarity(check, "x", 0, llm);
    expect(r.passed).toBe(true);
    expect(r.details.similarity_score).toBe(1);
  });

  it("fails with details.error when embedding fails or returns a bad shape", async () => {
    const throwing = fakeLlm(
      () => "{}",
      () => {
        throw new Error("embedding endpoint down");
      },
    );
    const r1 = await evaluateSemanticSimilarity(check, "x", 0, throwing);
    expect(r1.passed).toBe(false);
    expect(r1.details.error).toMatch(/embedding endpoint down/);
    const short = embedder([1, 0]);
    expect((await evaluateSemanticSimilarity(check, "x", 0, short)).details.error).toMatch(/Expected 2 embeddings/);
    const zero = embedder([0, 0], [1, 0]);
    const r3 = await evaluateSemanticSimilarity(check, "x", 0, zero);
    expect(r3).toMatchObject({ passed: false, details: { similarity_score: 0 } });
    expect(r3.details.error).toBeUndefined();
  });

  it("fails without calling the embedder when the agent gave no response", async () => {
    const llm = fakeLlm(() => "{}");
    const r = await evaluateSemanticSimilarity(check, "  ", 0, llm);
    expect(r.passed).toBe(false);
    expect(r.details.similarity_score).toBe(0);
    expect(llm.embedCalls).toHaveLength(0);
  });
});

describe("llm_judge check", () => {
  const check = { type: "llm_judge" as const, expected_answer: "Refund of $25", criteria: "Must mention the amount" };

  it("asks with expected answer, criteria and actual response; reasoning comes before verdict in the schema", () => {
    const req = buildCheckJudgeRequest(check, { question: "Can I get a refund?", response: "Yes, $25 back." });
    expect(req.schemaName).toBe(CHECK_SCHEMA_NAME);
    expect(req.purpose).toBe("check");
    const user = req.messages[1]?.content ?? "";
    expect(user).toContain("Can I get a refund?");
    expect(user).toContain("Refund of $25");
    expect(user).toContain("Must mention the amount");
    expect(user).toContain("Yes, $25 back.");
    const props = Object.keys((req.schema as { properties: object }).properties);
    expect(props).toEqual(["reasoning", "verdict"]);
    expect(req.schema).toMatchObject({ required: ["reasoning", "verdict"], additionalProperties: false });
  });

  it("returns the verdict and reasoning", async () => {
    const llm = fakeLlm(() => JSON.stringify({ reasoning: "mentions $25", verdict: "pass" }));
    const r = await evaluateLlmJudgeCheck(check, { question: "q", response: "r" }, 1, llm);
    expect(r).toEqual({ check_index: 1, check_type: "llm_judge", passed: true, details: { judgement: "pass", reasoning: "mentions $25" } });
    const fail = fakeLlm(() => JSON.stringify({ reasoning: "no amount", verdict: "fail" }));
    expect((await evaluateLlmJudgeCheck(check, { question: "q", response: "r" }, 1, fail)).passed).toBe(false);
  });

  it.each([
    ["garbage", "this is not json"],
    ["unknown verdict", JSON.stringify({ reasoning: "x", verdict: "maybe" })],
    ["missing reasoning", JSON.stringify({ verdict: "pass" })],
    ["extra key", JSON.stringify({ reasoning: "x", verdict: "pass", score: 5 })],
    ["array", "[]"],
  ])("fails closed with an error on %s", async (_, raw) => {
    const r = await evaluateLlmJudgeCheck(
      check,
      { question: "q", response: "r" },
      0,
      fakeLlm(() => raw),
    );
    expect(r.passed).toBe(false);
    expect(r.details.error).toBeTruthy();
    expect(r.details.judgement).toBeUndefined();
  });

  it("fails with an error when the call throws", async () => {
    const llm = fakeLlm(() => {
      throw new Error("HTTP 500");
    });
    const r = await evaluateLlmJudgeCheck(check, { question: "q", response: "r" }, 0, llm);
    expect(r.details.error).toMatch(/HTTP 500/);
  });
});

describe("checks combined by mode", () => {
  const result = (passed: boolean): CheckResult => ({ check_index: 0, check_type: "contains_phrases", passed, details: {} });

  it("all / any / none", () => {
    expect(checksSatisfied([], "all")).toBe(true);
    expect(checksSatisfied([], "any")).toBe(true);
    expect(checksSatisfied([result(true), result(false)], "all")).toBe(false);
    expect(checksSatisfied([result(true), result(false)], "any")).toBe(true);
    expect(checksSatisfied([result(false), result(false)], "any")).toBe(false);
    expect(checksSatisfied([result(true), result(true)], "all")).toBe(true);
  });

  it("evaluateChecks keeps check order and indices", async () => {
    const llm = fakeLlm(
      () => JSON.stringify({ reasoning: "ok", verdict: "pass" }),
      () => [
        [1, 0],
        [1, 0],
      ],
    );
    const results = await evaluateChecks(
      [
        { type: "llm_judge", expected_answer: "a", criteria: null },
        contains(["hello"]),
        { type: "semantic_similarity", expected_answer: "b", threshold: 0.5 },
      ],
      { response: "hello there", question: "hi", llm },
    );
    expect(results.map((r) => [r.check_index, r.check_type, r.passed])).toEqual([
      [0, "llm_judge", true],
      [1, "contains_phrases", true],
      [2, "semantic_similarity", true],
    ]);
  });
});
