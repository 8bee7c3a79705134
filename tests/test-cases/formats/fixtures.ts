import { expect } from "vitest";
import { testCaseInput } from "@/lib/test-cases/schemas";
import type { ConvertedItem, TestCaseDocument } from "@/lib/test-cases/formats/types";

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
