import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getCaseResult, listCaseResults } from "@/lib/runs/service";
import { withRunStack } from "../helpers/run-stack";
import { makeWorkspace, makeSuiteWithCases, reportText, runToEnd } from "../helpers/factories";

const { fake } = withRunStack();

describe("a run end to end against the fake OpenAI server", () => {
  it("answers tool calls with the mock response, evaluates checks and tool calls, and records every call", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite, agent } = await makeSuiteWithCases(ctx, 0, { baseUrl: fake.url });
    await db.agent.update({
      where: { id: agent.id },
      data: {
        tools: [
          {
            name: "get_order_status",
            description: "Look up an order",
            parameters: { type: "object" },
            mock_response: { status: "shipped", eta: "Friday" },
          },
        ],
      },
    });
    await db.testCase.createMany({
      data: [
        {
          workspaceId: ctx.workspaceId,
          suiteId: suite.id,
          name: "tool case",
          sortOrder: 0,
          tags: ["tools"],
          initialMessage: "Where is my order? use get_order_status",
          expectedToolCalls: [{ tool: "get_order_status", expected_params: { order_id: "123" } }],
          checks: [{ type: "contains_phrases", phrases: ["shipped"], case_sensitive: false }],
        },
        {
          workspaceId: ctx.workspaceId,
          suiteId: suite.id,
          name: "phrase case",
          sortOrder: 1,
          initialMessage: "Say hello",
          checks: [{ type: "contains_phrases", phrases: ["goodbye"], case_sensitive: false }],
        },
      ],
    });
    fake.addRule({
      match: { lastUserContains: "get_order_status", afterToolResult: false },
      reply: { toolCalls: [{ name: "get_order_status", arguments: { order_id: "123" } }] },
    });
    fake.addRule({ match: { afterToolResult: true }, reply: { content: "Your order has shipped and arrives Friday." } });

    const run = await runToEnd(ctx, suite.id);
    expect(run).toMatchObject({ status: "completed", total_cases: 2, passed_cases: 1, failed_cases: 1 });
    expect(run.summary).toMatchObject({ total_tests: 2, passed: 1, pass_rate: 50 });
    expect(run.agent_snapshot).toMatchObject({
      kind: "chat",
      system_prompt: "You are a helpful assistant.",
      model_config: { model: "fake-model" },
    });

    const results = await listCaseResults(ctx, run.id, { limit: 10, include: ["transcript"] });
    const [toolCase, phraseCase] = results.data;
    expect(toolCase).toMatchObject({ status: "passed", actual_response: "Your order has shipped and arrives Friday." });
    const toolMessage = (toolCase!.transcript as { role: string; tool_call_id?: string; content: string }[]).find((m) => m.role === "tool");
    expect(toolMessage?.content).toContain("shipped");
    expect(toolMessage?.tool_call_id).toBeTruthy();
    expect(toolCase!.tool_call_results).toMatchObject({ passed: true });
    expect(phraseCase).toMatchObject({ status: "failed" });
    expect(phraseCase!.check_results).toMatchObject([
      { check_type: "contains_phrases", passed: false, details: { missing_phrases: ["goodbye"] } },
    ]);

    const detail = await getCaseResult(ctx, toolCase!.id);
    expect(detail.llm_calls.map((c) => c.purpose)).toEqual(["agent", "agent"]);
    expect(detail.llm_calls[0]!.request).toMatchObject({ model: "fake-model" });
    expect(detail.llm_calls[1]!.response).toContain("shipped");

    const junit = await reportText(ctx, run.id, "junit");
    expect(junit).toContain('<testsuites name="Assay" tests="2" failures="1" errors="0"');
    expect(junit).toContain("<failure");
    const md = await reportText(ctx, run.id, "markdown");
    expect(md).toContain("**Tests**: 1 passed, 1 failed of 2 (1 not met, 0 errors) — 50% pass rate");
    const csv = await reportText(ctx, run.id, "csv");
    expect(csv.split("\n")[0]).toContain("position,name,variant,status");
  });

  it("simulates a multi-turn conversation and judges expected outcomes, failing closed on a broken judge", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 0, { baseUrl: fake.url });
    const persona = { type: "frustrated-user", description: "Waited two weeks", instructions: "Ask for a refund" };
    await db.testCase.createMany({
      data: [
        {
          workspaceId: ctx.workspaceId,
          suiteId: suite.id,
          name: "judged ok",
          sortOrder: 0,
          persona,
          initialMessage: "I want a refund",
          maxTurns: 3,
          expectedOutcomes: { "offers a refund": true },
        },
        {
          workspaceId: ctx.workspaceId,
          suiteId: suite.id,
          name: "judge broken",
          sortOrder: 1,
          persona,
          initialMessage: "BROKEN JUDGE please",
          maxTurns: 2,
          expectedOutcomes: { "stays polite": true },
        },
      ],
    });
    fake.addRule({
      match: { schemaName: "simulator_turn" },
      reply: { json: { message: "ok thanks", should_end: true, end_reason: "satisfied" } },
    });
    fake.addRule({ match: { schemaName: "outcome_verdicts", anyContains: "BROKEN JUDGE" }, reply: { content: "not json at all" } });
    fake.addRule({
      match: { schemaName: "outcome_verdicts" },
      reply: { json: { o1: { reasoning: "Refund offered in turn 2", evidence_turns: [2], verdict: "pass" } } },
    });

    const run = await runToEnd(ctx, suite.id);
    const { data } = await listCaseResults(ctx, run.id, { limit: 10 });
    expect(data[0]).toMatchObject({ status: "passed", outcome_results: [{ key: "o1", label: "offers a refund", passed: true }] });
    expect(data[0]!.turns).toBeGreaterThanOrEqual(1);
    expect(data[1]).toMatchObject({ status: "error", error_type: "judge" });
    // The simulator never sees the expected outcomes.
    const simulatorRequests = fake.requests.filter((r) => r.body?.response_format?.json_schema?.name === "simulator_turn");
    expect(simulatorRequests.length).toBeGreaterThan(0);
    expect(JSON.stringify(simulatorRequests.map((r) => r.body))).not.toContain("offers a refund");
    const judged = await getCaseResult(ctx, data[0]!.id);
    const judgeCall = judged.llm_calls.find((c) => c.purpose === "judge");
    expect(JSON.stringify(judgeCall?.request)).toContain("offers a refund");
    expect(judgeCall?.response).toContain("Refund offered");
  });

  it("records an agent endpoint that keeps failing as an error case, not a failure", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 1, { baseUrl: fake.url });
    fake.addRule({ match: { endpoint: "chat" }, reply: { status: 500 } });
    const run = await runToEnd(ctx, suite.id);
    expect(run).toMatchObject({ status: "completed", error_cases: 1 });
    const { data } = await listCaseResults(ctx, run.id, { limit: 10 });
    expect(data[0]).toMatchObject({ status: "error", error_type: "agent", retry_count: 2 });
  });
});
