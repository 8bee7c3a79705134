/**
 * The one line a failed or errored row says about why: the first failing check's detail, else
 * the first outcome not met, else the pass rule's reason, or the error with its kind.
 */
import { describe, expect, it } from "vitest";
import { failureReason, oneLine, type FailureReasonInput } from "@/lib/runs/failure-reason";

const failed = (over: Partial<FailureReasonInput>): FailureReasonInput => ({
  status: "failed",
  error_type: null,
  error_message: null,
  failure_reasons: ["1 of 1 check failed"],
  failed_check: null,
  failed_outcome: null,
  ...over,
});

describe("failureReason", () => {
  it("names the missing phrases of a contains check instead of counting checks", () => {
    expect(
      failureReason(failed({ failed_check: { check_type: "contains_phrases", missing_phrases: ["refund policy", "30 days"] } })),
    ).toEqual({
      text: "Missing phrases “refund policy”, “30 days”",
      more: 0,
    });
    expect(failureReason(failed({ failed_check: { check_type: "contains_phrases", missing_phrases: ["refund"] } }))?.text).toBe(
      "Missing phrase “refund”",
    );
  });

  it("gives the similarity against its threshold and the judge's first line", () => {
    expect(
      failureReason(failed({ failed_check: { check_type: "semantic_similarity", similarity_score: 0.6123, threshold: 0.8 } }))?.text,
    ).toBe("Similarity 0.61 < threshold 0.80");
    const judged = failureReason(
      failed({
        failure_reasons: ["1 of 2 checks failed", "Missing tool call lookup"],
        failed_check: { check_type: "llm_judge", reasoning: "\n  The answer   ignores the question.\nSecond line." },
      }),
    );
    expect(judged).toEqual({ text: "Judge: The answer ignores the question.", more: 1 });
  });

  it("falls back to the outcome not met, then to the pass rule's own reason", () => {
    expect(
      failureReason(
        failed({
          failure_reasons: ["1 of 1 outcome not met"],
          failed_outcome: { label: "Offers a refund", reasoning: "Never offered one." },
        }),
      )?.text,
    ).toBe("Outcome not met: Offers a refund — Never offered one.");
    expect(failureReason(failed({ failure_reasons: ["Missing tool call lookup_order"] }))?.text).toBe("Missing tool call lookup_order");
    expect(failureReason(failed({ failure_reasons: [] }))?.text).toBe("Failed (no reason was recorded)");
    // An unknown check type says nothing more than the pass rule: its reason stands.
    expect(failureReason(failed({ failed_check: { check_type: "regex" }, failure_reasons: ["1 of 1 check failed"] }))?.text).toBe(
      "1 of 1 check failed",
    );
  });

  it("says what kind of error, with its message, and nothing for other statuses", () => {
    const error = { ...failed({}), status: "error", failure_reasons: [], error_type: "judge", error_message: "timed out" };
    expect(failureReason(error)).toEqual({ text: "Judge error: timed out", more: 0 });
    expect(failureReason({ ...error, error_type: null, error_message: null })?.text).toBe("Error");
    expect(failureReason({ ...error, error_type: "quota", error_message: "429" })?.text).toBe("quota error: 429");
    expect(failureReason({ ...failed({}), status: "passed" })).toBeNull();
    expect(failureReason({ ...failed({}), status: "skipped" })).toBeNull();
  });

  it("keeps a reason to one line of bounded length", () => {
    expect(oneLine("a".repeat(500))).toHaveLength(200);
    expect(oneLine("a".repeat(500)).endsWith("…")).toBe(true);
    expect(oneLine("first\nsecond")).toBe("first");
  });
});
