import { describe, expect, it } from "vitest";
import { NOT_EVALUATED, evaluateCase, toolCallsFromTranscript } from "@/lib/evaluation/evaluate-case";
import { createEvalCache } from "@/lib/evaluation/llm-json";
import { metricConfigSchema } from "@/lib/evaluation/schemas";
import type { EvalJsonRequest } from "@/lib/evaluation/types";
import { testCaseInput } from "@/lib/test-cases/schemas";
import { caseData, fakeLlm, ORDER_TURN, outcomeReply } from "./helpers";

const transcript = ORDER_TURN;
const finalResponse = "Your order 42 has shipped.";

const fullCase = caseData({
  checks: [
    { type: "contains_phrases", phrases: ["shipped"], case_sensitive: false },
    { type: "llm_judge", expected_answer: "The order has shipped", criteria: null },
    { type: "semantic_similarity", expected_answer: "Order 42 shipped", threshold: 0.5 },
  ],
  expected_tool_calls: [{ tool: "search_orders", expected_params: { order_id: 42 }, forbidden: undefined }],
  expected_outcomes: { "agent looks up the order": true, "tells the status": "shipped" },
  ground_truth: "Order 42 shipped yesterday.",
});
const metrics = [
  metricConfigSchema.parse({ metric: "relevance", threshold: 3 }),
  metricConfigSchema.parse({ metric: "correctness", threshold: 3 }),
];

/** Answers by schema name, like the fake server's `match: {schemaName}` rules. */
function byschema(replies: Record<string, string>) {
  return (req: EvalJsonRequest) => {
    const reply = replies[req.schemaName];
    if (reply === undefined) throw new Error(`no reply scripted for ${req.schemaName}`);
    return reply;
  };
}
const goodReplies = {
  check_verdict: JSON.stringify({ reasoning: "same meaning", verdict: "pass" }),
  outcome_verdicts: outcomeReply(["pass", "pass"], [1]),
  metric_relevance: JSON.stringify({ reasoning: "on topic", score: 5 }),
  metric_correctness: JSON.stringify({ reasoning: "matches", score: 4 }),
};

describe("evaluateCase", () => {
  it("passes a case that meets everything", async () => {
    const llm = fakeLlm(byschema(goodReplies));
    const r = await evaluateCase({ testCase: fullCase, transcript, finalResponse, metrics, llm });
    expect(r.status).toBe("passed");
    expect(r.reason).toBeNull();
    expect(r.judge_error).toBeNull();
    expect(r.check_results.map((c) => c.passed)).toEqual([true, true, true]);
    expect(r.tool_call_results?.matched).toHaveLength(1);
    expect(r.outcome_results.map((o) => [o.key, o.passed, o.evidence_turns])).toEqual([
      ["o1", true, [1]],
      ["o2", true, [1]],
    ]);
    expect(r.metric_results.map((m) => [m.metric_name, m.score, m.normalized_score, m.passed])).toEqual([
      ["relevance", 5, 1, true],
      ["correctness", 4, 0.75, true],
    ]);
    expect(r.failure_reasons).toEqual([]);
    // Tool calls were read from the transcript.
    expect(toolCallsFromTranscript(transcript)).toEqual([{ name: "search_orders", arguments: '{"order_id":42}' }]);
  });

  it("fails with reasons when the agent misses outcomes and tool calls", async () => {
    const llm = fakeLlm(byschema({ ...goodReplies, outcome_verdicts: outcomeReply(["pass", "fail"]) }));
    const r = await evaluateCase({ testCase: fullCase, transcript, finalResponse, actualToolCalls: [], metrics: [], llm });
    expect(r.status).toBe("failed");
    expect(r.reason).toBe("Missing tool call search_orders; 1 of 2 outcomes not met");
    expect(r.failure_reasons).toEqual(["Missing tool call search_orders", "1 of 2 outcomes not met"]);
    expect(r.judge_error).toBeNull();
  });

  it("is an error (not a failure) when the judge answers garbage", async () => {
    const llm = fakeLlm(byschema({ ...goodReplies, outcome_verdicts: "I think it passed" }));
    const r = await evaluateCase({ testCase: fullCase, transcript, finalResponse, metrics, llm });
    expect(r.status).toBe("error");
    expect(r.judge_error).toMatch(/^Outcome judge: The judge reply is not valid JSON/);
    expect(r.outcome_results.map((o) => o.passed)).toEqual([false, false]);
  });

  it("ignores a metric error unless fail_on_error", async () => {
    const broken = { ...goodReplies, metric_relevance: "??" };
    const soft = await evaluateCase({ testCase: fullCase, transcript, finalResponse, metrics, llm: fakeLlm(byschema(broken)) });
    expect(soft.status).toBe("passed");
    expect(soft.metric_results[0]?.error).toBeTruthy();
    const strict = [metricConfigSchema.parse({ metric: "relevance", threshold: 3, fail_on_error: true })];
    const hard = await evaluateCase({ testCase: fullCase, transcript, finalResponse, metrics: strict, llm: fakeLlm(byschema(broken)) });
    expect(hard.status).toBe("error");
    expect(hard.judge_error).toMatch(/Metric relevance/);
  });

  it("on a conversation error runs only the deterministic evaluations", async () => {
    const llm = fakeLlm(byschema(goodReplies));
    const r = await evaluateCase({
      testCase: fullCase,
      transcript: transcript.slice(0, 2),
      finalResponse: null,
      actualToolCalls: [],
      conversationError: { type: "agent", message: "HTTP 500 from agent" },
      metrics,
      llm,
    });
    expect(r.status).toBe("error");
    expect(r.reason).toBe("agent error: HTTP 500 from agent");
    expect(r.judge_error).toBeNull();
    expect(llm.calls).toHaveLength(0);
    expect(llm.embedCalls).toHaveLength(0);
    expect(r.check_results[0]?.details.missing_phrases).toEqual(["shipped"]);
    expect(r.check_results[1]?.details.reasoning).toBe(NOT_EVALUATED);
    expect(r.outcome_results).toHaveLength(2);
    expect(r.tool_call_results?.passed).toBe(false);
    expect(r.metric_results).toEqual([]);
  });

  it("runs the judge calls concurrently", async () => {
    let inFlight = 0;
    let peak = 0;
    const release: (() => void)[] = [];
    const llm = fakeLlm(async (req) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      // Hold every call until four are in flight (or give up after 2 s, which fails the test).
      await new Promise<void>((resolve) => {
        release.push(resolve);
        if (release.length === 4) release.forEach((r) => r());
        setTimeout(resolve, 2000);
      });
      inFlight--;
      return byschema(goodReplies)(req);
    });
    const started = Date.now();
    const r = await evaluateCase({ testCase: fullCase, transcript, finalResponse, metrics, llm });
    expect(peak).toBe(4);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(r.status).toBe("passed");
  });

  it("caches identical judge calls across cases within one run cache", async () => {
    const cache = createEvalCache();
    const llm = fakeLlm(byschema(goodReplies));
    await evaluateCase({ testCase: fullCase, transcript, finalResponse, metrics, llm, cache });
    const first = llm.calls.length;
    await evaluateCase({ testCase: fullCase, transcript, finalResponse, metrics, llm, cache });
    expect(first).toBe(4);
    expect(llm.calls).toHaveLength(first);
    expect(llm.embedCalls).toHaveLength(1);
    // A different transcript is a different call.
    await evaluateCase({
      testCase: fullCase,
      transcript: [...transcript, { role: "user", content: "thanks" }],
      finalResponse,
      metrics,
      llm,
      cache,
    });
    expect(llm.calls.length).toBeGreaterThan(first);
  });

  it("passes a case with nothing to evaluate without any call", async () => {
    const llm = fakeLlm(() => "{}");
    const r = await evaluateCase({ testCase: caseData(), transcript, finalResponse, metrics: [], llm });
    expect(r).toEqual({
      status: "passed",
      reason: null,
      failure_reasons: [],
      check_results: [],
      tool_call_results: null,
      outcome_results: [],
      metric_results: [],
      judge_error: null,
    });
    expect(llm.calls).toHaveLength(0);
  });

  it("scores a case only on the metrics its evaluations name (the execution model's per-test selection)", async () => {
    const suiteMetrics = [
      ...metrics,
      metricConfigSchema.parse({ metric: "fluency", threshold: 5 }),
      metricConfigSchema.parse({ metric: "coherence", enabled: false }),
    ];
    const replies = {
      ...goodReplies,
      metric_fluency: JSON.stringify({ reasoning: "ok", score: 2 }),
      metric_coherence: JSON.stringify({ reasoning: "clear", score: 5 }),
    };
    const all = await evaluateCase({
      testCase: fullCase,
      transcript,
      finalResponse,
      metrics: suiteMetrics,
      llm: fakeLlm(byschema(replies)),
    });
    expect(all.metric_results.map((m) => m.metric_name)).toEqual(["relevance", "correctness", "fluency"]);
    expect(all.status).toBe("failed");
    expect(all.failure_reasons).toEqual(["Metric fluency below threshold (2 < 5 on 1–5)"]);

    // Only relevance and the suite's disabled coherence: fluency's low score no longer fails the case.
    const picked = { ...fullCase, evaluations: ["coherence", "relevance"] };
    const llm = fakeLlm(byschema(replies));
    const some = await evaluateCase({ testCase: picked, transcript, finalResponse, metrics: suiteMetrics, llm });
    expect(some.metric_results.map((m) => [m.metric_name, m.passed])).toEqual([
      ["coherence", true],
      ["relevance", true],
    ]);
    expect(some.status).toBe("passed");
    expect(llm.calls.map((c) => c.schemaName).filter((n) => n.startsWith("metric_"))).toEqual(["metric_coherence", "metric_relevance"]);

    // [] runs no metric; an unknown name is a metric error that does not fail the case.
    const none = await evaluateCase({
      testCase: { ...fullCase, evaluations: [] },
      transcript,
      finalResponse,
      metrics: suiteMetrics,
      llm: fakeLlm(byschema(replies)),
    });
    expect(none.metric_results).toEqual([]);
    const unknown = await evaluateCase({
      testCase: { ...fullCase, evaluations: ["tone"] },
      transcript,
      finalResponse,
      metrics: suiteMetrics,
      llm: fakeLlm(byschema(replies)),
    });
    // A metric that could not be evaluated does not fail the case (no fail_on_error), and its result
    // does not say it failed either: a passed case never carries a metric result with passed: false.
    expect(unknown.status).toBe("passed");
    expect(unknown.metric_results).toMatchObject([{ metric_name: "tone", passed: null, error: expect.stringMatching(/no metric "tone"/) }]);
    expect(unknown.metric_results.some((m) => m.passed === false)).toBe(false);
  });

  it("can require tool calls in order", async () => {
    const testCase = caseData({
      expected_tool_calls: [
        { tool: "a", expected_params: null },
        { tool: "b", expected_params: null },
      ],
    });
    const actualToolCalls = [
      { name: "b", arguments: "{}" },
      { name: "a", arguments: "{}" },
    ];
    const llm = fakeLlm(() => "{}");
    const loose = await evaluateCase({ testCase, transcript, finalResponse, actualToolCalls, metrics: [], llm });
    const strict = await evaluateCase({ testCase, transcript, finalResponse, actualToolCalls, metrics: [], llm, toolCallsOrdered: true });
    expect(loose.status).toBe("passed");
    expect(strict.status).toBe("failed");
    expect(strict.tool_call_results?.ordered).toBe(true);
  });

  it("accepts a test case parsed by the shared schema (TestCaseData)", async () => {
    const testCase = testCaseInput.parse({
      name: "parsed",
      initial_message: "Where is my order 42?",
      checks: [{ type: "contains_phrases", phrases: ["SHIPPED"] }],
      expected_tool_calls: [
        { tool: "search_orders", expected_params: { order_id: 42 } },
        { tool: "refund", forbidden: true },
      ],
      expected_outcomes: { "tells the status": true },
    });
    const llm = fakeLlm(byschema({ outcome_verdicts: outcomeReply(["pass"]) }));
    const r = await evaluateCase({ testCase, transcript, finalResponse, metrics: [], llm });
    expect(r.status).toBe("passed");
    expect(r.check_results[0]?.details.case_sensitive).toBe(false);
  });
});
