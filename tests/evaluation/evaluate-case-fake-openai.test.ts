// evaluateCase end to end over HTTP against the project's fake OpenAI server.
import { describe, expect, it } from "vitest";
import { evaluateCase } from "@/lib/evaluation/evaluate-case";
import { createEvalCache } from "@/lib/evaluation/llm-json";
import { metricConfigSchema } from "@/lib/evaluation/schemas";
import type { TranscriptMessage } from "@/lib/evaluation/types";
import { withFakeOpenAI } from "../helpers/run-stack";
import { caseData } from "./helpers";
import { openAiEvalLlm } from "./openai-eval-llm";

const server = withFakeOpenAI();

const transcript: TranscriptMessage[] = [
  { role: "user", content: "Where is my order 42?" },
  { role: "assistant", content: null, tool_calls: [{ id: "c1", name: "search_orders", arguments: '{"order_id":42,"verbose":true}' }] },
  { role: "tool", tool_call_id: "c1", content: '{"status":"shipped"}' },
  { role: "assistant", content: "Your order 42 has shipped." },
];
const finalResponse = "Your order 42 has shipped.";
const testCase = caseData({
  checks: [
    { type: "contains_phrases", phrases: ["SHIPPED"], case_sensitive: false },
    { type: "semantic_similarity", expected_answer: "Order 42 has shipped", threshold: 0.6 },
    { type: "llm_judge", expected_answer: "The order shipped", criteria: "Mention the order number" },
  ],
  expected_tool_calls: [
    { tool: "search_orders", expected_params: { order_id: 42 } },
    { tool: "cancel_order", expected_params: null, forbidden: true },
  ],
  expected_outcomes: { "agent looks up the order": true, "offers a discount": false },
  ground_truth: "Order 42 shipped.",
});
const metrics = [metricConfigSchema.parse({ metric: "groundedness", threshold: 4, retry_on_failure: 1 })];
const verdict = (v: "pass" | "fail") => ({ reasoning: "see turns", evidence_turns: [2, 4], verdict: v });

function scriptGoodJudge() {
  server.addRule({ match: { schemaName: "check_verdict" }, reply: { json: { reasoning: "mentions 42", verdict: "pass" } } });
  server.addRule({ match: { schemaName: "outcome_verdicts" }, reply: { json: { o1: verdict("pass"), o2: verdict("pass") } } });
  server.addRule({ match: { schemaName: "metric_groundedness" }, reply: { json: { reasoning: "supported", score: 5 } } });
}

describe("evaluateCase against the fake OpenAI server", () => {
  it("passes and sends strict structured-output requests at temperature 0", async () => {
    scriptGoodJudge();
    const r = await evaluateCase({ testCase, transcript, finalResponse, metrics, llm: openAiEvalLlm(server.url) });
    expect(r.judge_error).toBeNull();
    expect(r.status).toBe("passed");
    expect(r.check_results.map((c) => c.passed)).toEqual([true, true, true]);
    expect(r.check_results[1]?.details.similarity_score).toBeGreaterThan(0.6);
    expect(r.tool_call_results).toMatchObject({ passed: true, forbidden_called: [], unexpected: [] });
    expect(r.metric_results[0]).toMatchObject({
      metric_name: "groundedness",
      score: 5,
      normalized_score: 1,
      passed: true,
      model_used: "gpt-4o-mini",
    });

    const judge = server.requests.find((q) => q.body?.response_format?.json_schema?.name === "outcome_verdicts");
    expect(judge?.body.temperature).toBe(0);
    expect(judge?.body.response_format.json_schema.strict).toBe(true);
    expect(judge?.body.response_format.json_schema.schema.required).toEqual(["o1", "o2"]);
    expect(judge?.body.messages[1].content).toContain("→ TOOL CALL search_orders");
    expect(server.requests.filter((q) => q.endpoint === "embeddings")).toHaveLength(1);
  });

  it("fails on an outcome the agent did not meet, with a reason", async () => {
    server.addRule({ match: { schemaName: "outcome_verdicts" }, reply: { json: { o1: verdict("pass"), o2: verdict("fail") } } });
    scriptGoodJudge();
    const r = await evaluateCase({ testCase, transcript, finalResponse, metrics, llm: openAiEvalLlm(server.url) });
    expect(r.status).toBe("failed");
    expect(r.reason).toBe("1 of 2 outcomes not met");
  });

  it("reports a judge error on garbled or incomplete judge output", async () => {
    server.addRule({ match: { schemaName: "outcome_verdicts" }, reply: { json: { o1: verdict("pass") } } });
    scriptGoodJudge();
    const missing = await evaluateCase({ testCase, transcript, finalResponse, metrics, llm: openAiEvalLlm(server.url) });
    expect(missing.status).toBe("error");
    expect(missing.judge_error).toMatch(/missing outcome o2/);

    server.reset();
    server.addRule({ match: { schemaName: "check_verdict" }, reply: { garbled: true } });
    scriptGoodJudge();
    const garbled = await evaluateCase({ testCase, transcript, finalResponse, metrics, llm: openAiEvalLlm(server.url) });
    expect(garbled.status).toBe("error");
    expect(garbled.check_results[2]?.details.error).toMatch(/Judge call failed/);
    expect(garbled.outcome_results.map((o) => o.passed)).toEqual([true, true]);
  });

  it("retries a metric after a server error and records the retry", async () => {
    server.addRule({ match: { schemaName: "metric_groundedness" }, reply: { status: 500 }, times: 1 });
    scriptGoodJudge();
    const r = await evaluateCase({ testCase, transcript, finalResponse, metrics, llm: openAiEvalLlm(server.url) });
    expect(r.metric_results[0]).toMatchObject({ passed: true, retry_count: 1, error: null });
    expect(r.status).toBe("passed");
  });

  it("fails a forbidden tool call and serves repeated judge calls from the run cache", async () => {
    scriptGoodJudge();
    const cache = createEvalCache();
    const llm = openAiEvalLlm(server.url);
    const calls = [
      { name: "search_orders", arguments: '{"order_id":42}' },
      { name: "cancel_order", arguments: '{"order_id":42}' },
    ];
    const a = await evaluateCase({ testCase, transcript, finalResponse, actualToolCalls: calls, metrics, llm, cache });
    const count = server.requests.length;
    const b = await evaluateCase({ testCase, transcript, finalResponse, actualToolCalls: calls, metrics, llm, cache });
    expect(a.status).toBe("failed");
    expect(a.reason).toBe("Forbidden tool called: cancel_order");
    const withoutTimes = (x: typeof a) => ({ ...x, metric_results: x.metric_results.map((m) => ({ ...m, evaluation_time_ms: 0 })) });
    expect(withoutTimes(b)).toEqual(withoutTimes(a));
    expect(server.requests.length).toBe(count);
  });
});
