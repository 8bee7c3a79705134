import { describe, expect, it } from "vitest";
import { isSuccessful, pairDiffs, tokensPerMs, totalTokens, verdictChange, type ArmExecution } from "@/lib/comparisons/diffs";

function exec(overrides: Partial<ArmExecution> = {}): ArmExecution {
  return { response: "hello", prompt_tokens: 100, completion_tokens: 50, latency_ms: 200, status: "passed", error: null, ...overrides };
}

describe("per-execution fields (the A/B engine's AgentResponse)", () => {
  it("total_tokens is prompt + completion", () => {
    expect(totalTokens(exec({ prompt_tokens: 120, completion_tokens: 30 }))).toBe(150);
  });

  it("tokens_per_ms is completion tokens over latency, 0 when latency is 0", () => {
    expect(tokensPerMs(exec({ completion_tokens: 50, latency_ms: 200 }))).toBe(0.25);
    expect(tokensPerMs(exec({ completion_tokens: 50, latency_ms: 0 }))).toBe(0);
  });

  it("success needs no error and a verdict", () => {
    expect(isSuccessful(exec({ status: "passed" }))).toBe(true);
    expect(isSuccessful(exec({ status: "failed" }))).toBe(true);
    expect(isSuccessful(exec({ status: "error", error: "timeout" }))).toBe(false);
    expect(isSuccessful(exec({ status: "skipped" }))).toBe(false);
    expect(isSuccessful(exec({ status: "passed", error: "late error" }))).toBe(false);
  });
});

describe("pair fields (the A/B engine's ABTestResult), variant − baseline", () => {
  it("computes every diff of a normal pair", () => {
    const d = pairDiffs({
      baseline: exec({ prompt_tokens: 100, completion_tokens: 100, latency_ms: 200, response: "abcd" }),
      variant: exec({ prompt_tokens: 150, completion_tokens: 80, latency_ms: 260, response: "abcdef" }),
    });
    expect(d).toEqual({
      token_overhead: 30,
      token_overhead_pct: 15,
      latency_diff_ms: 60,
      latency_improvement_pct: 30,
      response_length_ratio: 1.5,
      both_successful: true,
      verdict_change: "same",
    });
  });

  it("is negative when the variant uses less", () => {
    const d = pairDiffs({
      baseline: exec({ prompt_tokens: 200, completion_tokens: 0, latency_ms: 400 }),
      variant: exec({ prompt_tokens: 150, completion_tokens: 0, latency_ms: 300 }),
    });
    expect(d.token_overhead).toBe(-50);
    expect(d.token_overhead_pct).toBe(-25);
    expect(d.latency_diff_ms).toBe(-100);
    expect(d.latency_improvement_pct).toBe(-25);
  });

  it("token_overhead_pct is 0.0 when the baseline used no tokens, whatever the variant used", () => {
    const d = pairDiffs({
      baseline: exec({ prompt_tokens: 0, completion_tokens: 0 }),
      variant: exec({ prompt_tokens: 40, completion_tokens: 10 }),
    });
    expect(d.token_overhead).toBe(50);
    expect(d.token_overhead_pct).toBe(0);
  });

  it("latency_improvement_pct is 0.0 when the baseline latency is 0 (a failed call records 0 ms)", () => {
    const d = pairDiffs({ baseline: exec({ latency_ms: 0 }), variant: exec({ latency_ms: 250 }) });
    expect(d.latency_diff_ms).toBe(250);
    expect(d.latency_improvement_pct).toBe(0);
  });

  it("response_length_ratio is 1.0 when the baseline response is empty, even if the variant's is not", () => {
    expect(pairDiffs({ baseline: exec({ response: "" }), variant: exec({ response: "something" }) }).response_length_ratio).toBe(1);
    expect(pairDiffs({ baseline: exec({ response: "" }), variant: exec({ response: "" }) }).response_length_ratio).toBe(1);
    expect(pairDiffs({ baseline: exec({ response: "abcd" }), variant: exec({ response: "" }) }).response_length_ratio).toBe(0);
  });

  it("counts response length in code points, as Python's len()", () => {
    // "👍" is one code point but two UTF-16 units.
    expect(pairDiffs({ baseline: exec({ response: "ab" }), variant: exec({ response: "👍👍" }) }).response_length_ratio).toBe(1);
  });

  it("both_successful is false when either arm errored or was skipped", () => {
    const err = exec({ status: "error", error: "HTTP 500", response: "", prompt_tokens: 0, completion_tokens: 0, latency_ms: 0 });
    expect(pairDiffs({ baseline: exec(), variant: err }).both_successful).toBe(false);
    expect(pairDiffs({ baseline: err, variant: exec() }).both_successful).toBe(false);
    expect(pairDiffs({ baseline: exec({ status: "skipped" }), variant: exec() }).both_successful).toBe(false);
  });

  it("still computes the spec's diffs for a failed arm (0 tokens, 0 ms)", () => {
    const err = exec({ status: "error", error: "timeout", response: "", prompt_tokens: 0, completion_tokens: 0, latency_ms: 0 });
    const d = pairDiffs({ baseline: err, variant: exec({ prompt_tokens: 10, completion_tokens: 5, latency_ms: 120 }) });
    expect(d).toMatchObject({ token_overhead: 15, token_overhead_pct: 0, latency_diff_ms: 120, latency_improvement_pct: 0 });
    expect(d.response_length_ratio).toBe(1);
  });
});

describe("verdict_change", () => {
  const arm = (status: ArmExecution["status"]) => exec({ status, error: status === "error" ? "boom" : null });

  it.each([
    ["passed", "passed", "same"],
    ["failed", "failed", "same"],
    ["passed", "failed", "pass_to_fail"],
    ["failed", "passed", "fail_to_pass"],
    ["error", "passed", "error"],
    ["passed", "error", "error"],
    ["error", "error", "error"],
    ["skipped", "passed", "error"],
    ["failed", "skipped", "error"],
  ] as const)("baseline %s, variant %s → %s", (baseline, variant, expected) => {
    const pair = { baseline: arm(baseline), variant: arm(variant) };
    expect(verdictChange(pair)).toBe(expected);
    expect(pairDiffs(pair).verdict_change).toBe(expected);
  });

  it("is error when a passed/failed arm still carries an error message", () => {
    expect(verdictChange({ baseline: exec(), variant: exec({ status: "failed", error: "judge timeout" }) })).toBe("error");
  });
});
