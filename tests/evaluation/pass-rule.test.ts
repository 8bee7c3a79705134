import { describe, expect, it } from "vitest";
import { decideStatus, type PassRuleInput } from "@/lib/evaluation/pass-rule";
import type { CheckResult, MetricResult, OutcomeResult, ToolCallResults } from "@/lib/evaluation/types";

const check = (passed: boolean, error?: string): CheckResult => ({
  check_index: 0,
  check_type: "llm_judge",
  passed,
  details: error ? { error } : { judgement: passed ? "pass" : "fail" },
});
const tools = (passed: boolean): ToolCallResults => ({
  passed,
  ordered: false,
  matched: [],
  missing: passed ? [] : [{ tool: "search_orders", expected_params: null, reason: "search_orders was not called" }],
  unexpected: [],
  forbidden_called: [],
});
const outcome = (passed: boolean, key = "o1"): OutcomeResult => ({
  key,
  label: key,
  expected: true,
  passed,
  reasoning: "",
  evidence_turns: [],
});
const metric = (passed: boolean, error: string | null = null): MetricResult => ({
  metric_name: "relevance",
  score: error ? null : passed ? 5 : 2,
  normalized_score: error ? null : passed ? 1 : 0.25,
  threshold: 3,
  normalized_threshold: 0.5,
  // A metric that could not be evaluated is neither passed nor failed.
  passed: error ? null : passed,
  scale: 5,
  error,
  retry_count: 0,
  evaluation_time_ms: 1,
  model_used: "m",
  raw_score: null,
  reasoning: null,
});

const ok: PassRuleInput = {
  conversationError: null,
  checkResults: [check(true)],
  mode: "all",
  toolCallResults: tools(true),
  outcomeResults: [outcome(true)],
  metrics: [{ result: metric(true), fail_on_error: false }],
  outcomeJudgeError: null,
};

describe("pass rule truth table", () => {
  const rows: [string, Partial<PassRuleInput>, "passed" | "failed" | "error"][] = [
    ["everything good", {}, "passed"],
    ["nothing to evaluate", { checkResults: [], toolCallResults: null, outcomeResults: [], metrics: [] }, "passed"],
    ["conversation error", { conversationError: { type: "agent", message: "HTTP 500" } }, "error"],
    ["conversation error beats a pass", { conversationError: { type: "simulator", message: "empty message" } }, "error"],
    ["check failed (all)", { checkResults: [check(true), check(false)] }, "failed"],
    ["check failed but mode any", { checkResults: [check(true), check(false)], mode: "any" }, "passed"],
    ["no check passed (any)", { checkResults: [check(false), check(false)], mode: "any" }, "failed"],
    ["tool calls not matched", { toolCallResults: tools(false) }, "failed"],
    ["no tool expectations", { toolCallResults: null }, "passed"],
    ["an outcome not met", { outcomeResults: [outcome(true), outcome(false, "o2")] }, "failed"],
    ["metric below threshold", { metrics: [{ result: metric(false), fail_on_error: false }] }, "failed"],
    ["metric error ignored", { metrics: [{ result: metric(false, "timeout"), fail_on_error: false }] }, "passed"],
    ["metric error with fail_on_error", { metrics: [{ result: metric(false, "timeout"), fail_on_error: true }] }, "error"],
    // Results stored before errored metrics said passed: null still read as not evaluated.
    [
      "stored metric error (passed: false)",
      { metrics: [{ result: { ...metric(false, "timeout"), passed: false }, fail_on_error: false }] },
      "passed",
    ],
    ["outcome judge error", { outcomeJudgeError: "missing outcome o1", outcomeResults: [outcome(false)] }, "error"],
    ["check evaluator error", { checkResults: [check(false, "Embedding failed")] }, "error"],
    ["judge error beats agent failure", { outcomeJudgeError: "garbage", toolCallResults: tools(false) }, "error"],
  ];
  it.each(rows)("%s → %s", (_, patch, status) => {
    expect(decideStatus({ ...ok, ...patch }).status).toBe(status);
  });
});

describe("reasons", () => {
  it("is null when passed", () => {
    expect(decideStatus(ok)).toEqual({ status: "passed", reason: null, failure_reasons: [], judge_error: null });
  });

  it("summarises every failure", () => {
    const d = decideStatus({
      ...ok,
      checkResults: [check(true), check(false), check(false)],
      toolCallResults: tools(false),
      outcomeResults: [outcome(false), outcome(false, "o2"), outcome(true, "o3")],
      metrics: [{ result: metric(false), fail_on_error: false }],
    });
    expect(d.status).toBe("failed");
    expect(d.reason).toBe(
      "2 of 3 checks failed; missing tool call search_orders; 2 of 3 outcomes not met; metric relevance below threshold (2 < 3 on 1–5)",
    );
    // One failure reason per unmet expectation, apart from errors.
    expect(d.failure_reasons).toEqual([
      "2 of 3 checks failed",
      "Missing tool call search_orders",
      "2 of 3 outcomes not met",
      "Metric relevance below threshold (2 < 3 on 1–5)",
    ]);
    expect(d.judge_error).toBeNull();
  });

  it("explains errors and keeps judge errors apart from agent errors", () => {
    const agent = decideStatus({ ...ok, conversationError: { type: "agent", message: "HTTP 500" } });
    expect(agent).toEqual({ status: "error", reason: "agent error: HTTP 500", failure_reasons: [], judge_error: null });
    const judge = decideStatus({
      ...ok,
      outcomeJudgeError: "unknown verdict",
      metrics: [{ result: metric(false, "timed out"), fail_on_error: true }],
    });
    expect(judge.judge_error).toBe("Outcome judge: unknown verdict; Metric relevance: timed out");
    expect(judge.reason).toMatch(/^Evaluation error: Outcome judge/);
    // An errored case has errors, never failure reasons (even with unmet expectations).
    expect(judge.failure_reasons).toEqual([]);
  });

  it("mentions forbidden tools and mode any", () => {
    const d = decideStatus({
      ...ok,
      mode: "any",
      checkResults: [check(false), check(false)],
      toolCallResults: {
        ...tools(true),
        passed: false,
        forbidden_called: [
          { tool: "delete", arguments: {} },
          { tool: "delete", arguments: {} },
        ],
      },
    });
    expect(d.reason).toBe("None of 2 checks passed; forbidden tool called: delete");
  });
});
