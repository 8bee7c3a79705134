import { expect } from "vitest";
import { testCaseInput } from "@/lib/test-cases/schemas";
import type { ConvertedItem, TestCaseDocument } from "@/lib/test-cases/formats/types";
import { CASE_FIELDS } from "../../helpers/factories";

/** Every field of a case but its files, which a JSON item cannot carry. */
export const FIELDS_BUT_FILES = CASE_FIELDS.filter((f) => f !== "files");

/** The test case format's defaults: what a case holds for each field it leaves out. */
export const CASE_DEFAULTS = {
  description: null,
  difficulty: "normal",
  tags: [],
  status: "active",
  persona: null,
  user_context: null,
  max_turns: null,
  expected_outcomes: null,
  expected_tool_calls: null,
  evaluation_criteria_override: null,
  checks: [],
  mode: "all",
  ground_truth: null,
} as const;

/**
 * A case document named `name` with every other field unset (null, or the format's default), so
 * a fixture lists only what it sets.
 */
export function caseDocument(name: string, over: Partial<TestCaseDocument> = {}): TestCaseDocument {
  return {
    name,
    ...CASE_DEFAULTS,
    initial_message: null,
    evaluations: null,
    variables: null,
    files: null,
    ...over,
  } as TestCaseDocument;
}

/** A case document that uses every field an export has to carry (round trips start here). */
export function roundTripCase(over: Partial<TestCaseDocument> = {}): TestCaseDocument {
  return {
    name: "Full case",
    description: "Checks every field",
    difficulty: "hard",
    tags: ["billing", "edge-case"],
    status: "draft",
    persona: null,
    initial_message: "Where is my refund?",
    user_context: { account: "A-1", plan: "pro" },
    max_turns: null,
    expected_outcomes: { "Refund explained": "The agent explains when the refund arrives" },
    expected_tool_calls: [{ tool: "lookup_refund", expected_params: { order_id: "42" } }],
    evaluation_criteria_override: "Be strict about dates",
    checks: [
      { type: "contains_phrases", phrases: ["refund", "days"], case_sensitive: false },
      { type: "semantic_similarity", expected_answer: "Your refund arrives in 5 days", threshold: 0.8 },
      { type: "llm_judge", expected_answer: "Refund in 5 days", criteria: "Mentions the number of days" },
      { type: "llm_judge", expected_answer: "It was sent on Monday", criteria: null },
    ],
    mode: "all",
    ground_truth: "Refunds take 5 business days",
    evaluations: ["coherence"],
    variables: null,
    files: [{ path: "https://example.com/policy.pdf", type: "pdf" }],
    ...over,
  } as TestCaseDocument;
}

/** Every converted case is one Assay accepts. */
export function expectValidCases(items: ConvertedItem[]) {
  for (const item of items) {
    if (!item.case) continue;
    const parsed = testCaseInput.safeParse(item.case);
    expect(parsed.success, `${item.report.label}: ${parsed.success ? "" : JSON.stringify(parsed.error.issues)}`).toBe(true);
  }
}

/**
 * A case that came back from an export matches the case that went out, field by field (files
 * aside: they cannot travel in a JSON item), each mismatch named by case and field.
 */
export function expectSameFields(item: ConvertedItem, original: TestCaseDocument) {
  const expected = testCaseInput.parse({ ...original, files: null });
  const actual = testCaseInput.parse(item.case);
  for (const field of FIELDS_BUT_FILES) expect(actual[field], `${original.name}: ${field}`).toEqual(expected[field]);
}
