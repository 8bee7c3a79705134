/**
 * Drafting test cases from traffic against the fake model: what the judge model is asked (the
 * user's turns), the draft's fields (opening message, max_turns, expected tool calls with or
 * without parameters, the judge's persona, user context and outcomes), the notes without a judge
 * or with a judge answer that cannot be used, the saved case's source, bulk drafts with their
 * report, and the saved case running green against the same agent.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { POST as ingest } from "@/app/api/v1/otlp/v1/traces/route";
import { POST as draftRoute } from "@/app/api/v1/conversations/[id]/draft-case/route";
import { POST as bulkRoute } from "@/app/api/v1/suites/[id]/test-cases/from-conversations/route";
import { POST as createCaseRoute } from "@/app/api/v1/suites/[id]/test-cases/route";
import { db } from "@/lib/db";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { listCaseResults } from "@/lib/runs/service";
import { createTestCase } from "@/lib/test-cases/service";
import { draftCaseFromCaseResult } from "@/lib/traffic/service";
import { assemblePending } from "@/lib/traffic/assembler";
import { call } from "../helpers/api";
import { makeApiKey, makeModelConfig, makeWorkspace, runToEnd } from "../helpers/factories";
import { withRunStack } from "../helpers/run-stack";
import { chatSpan, hexId, otlpRequest, supportConversation } from "./spans";

const { fake } = withRunStack();

let ctx: WorkspaceContext;
let editor: string;
let suiteId: string;
let bareSuiteId: string;
let conversationId: string;
let singleId: string;

const PERSONA_DRAFT = {
  persona: {
    type: "anxious customer with a late order",
    description: "Ordered item 1042, which missed its Monday delivery date; wants it and a shipping refund.",
    instructions: "Ask where order 1042 is, mention it was due Monday, then ask for the shipping fee back. Stop once refunded.",
  },
  user_context: [{ key: "order_id", value: "1042" }],
  expected_outcomes: [{ label: "refunds shipping", description: "The agent refunds the shipping fee" }],
};

const draft = (id: string, body: Record<string, unknown>) =>
  call(draftRoute, { method: "POST", token: editor, params: { id }, body, url: `/api/v1/conversations/${id}/draft-case` });

beforeAll(async () => {
  const made = await makeWorkspace("owner");
  ctx = made.ctx;
  editor = await makeApiKey(ctx.workspaceId, "editor");
  const model = await makeModelConfig(ctx.workspaceId, { baseUrl: fake.url, model: "fake-model" });
  const agent = await db.agent.create({
    data: {
      workspaceId: ctx.workspaceId,
      name: "support",
      kind: "chat",
      systemPrompt: "You are the support agent.",
      modelConfigId: model.id,
      otelServiceName: "support-bot",
      tools: [
        {
          name: "lookup_order",
          description: "Find an order",
          parameters: { type: "object", properties: { order_id: { type: "string" } } },
          mock_response: '{"status":"delayed"}',
        },
      ],
    },
  });
  suiteId = (
    await db.suite.create({ data: { workspaceId: ctx.workspaceId, agentId: agent.id, name: "support", llmJudgeModelConfigId: model.id } })
  ).id;
  bareSuiteId = (await db.suite.create({ data: { workspaceId: ctx.workspaceId, agentId: agent.id, name: "no judge" } })).id;

  const send = (body: unknown) => call(ingest, { method: "POST", token: editor, body, url: "/api/v1/otlp/v1/traces" });
  const cid = `draft-${hexId(4)}`;
  for (const spans of supportConversation(cid, Date.UTC(2026, 10, 25, 14, 2)))
    expect((await send(otlpRequest("support-bot", spans))).status).toBe(200);
  // Conversations are assembled after the export's answer; reading through the service would wait for it.
  await assemblePending(ctx.workspaceId);
  conversationId = (await db.trafficConversation.findFirstOrThrow({ where: { workspaceId: ctx.workspaceId, externalId: cid } })).id;
  const sid = `single-${hexId(4)}`;
  await send(
    otlpRequest("support-bot", [
      chatSpan({
        traceId: hexId(16),
        conversationId: sid,
        startMs: Date.UTC(2026, 10, 25, 15, 0),
        endMs: Date.UTC(2026, 10, 25, 15, 0, 1),
        input: [{ role: "user", text: "What are your opening hours?" }],
        output: { role: "assistant", text: "We are open 9 to 5, Monday to Friday." },
      }),
    ]),
  );
  await assemblePending(ctx.workspaceId);
  singleId = (await db.trafficConversation.findFirstOrThrow({ where: { workspaceId: ctx.workspaceId, externalId: sid } })).id;
});

describe("drafting a case from a conversation", () => {
  it("drafts a simulated-user case: the judge reads the user's turns, and the draft carries its persona, context and outcomes", async () => {
    fake.addRule({ match: { schemaName: "case_draft_persona" }, reply: { json: PERSONA_DRAFT } });
    const res = await draft(conversationId, { suite_id: suiteId });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      kind: "persona",
      test_case: {
        name: "Where is my order 1042?",
        description: "Drafted from a conversation of support-bot on 2026-11-25 14:02 UTC.",
        status: "active",
        tags: ["from-traffic"],
        initial_message: "Where is my order 1042?",
        persona: PERSONA_DRAFT.persona,
        user_context: { order_id: "1042" },
        max_turns: 5,
        expected_outcomes: { "refunds shipping": "The agent refunds the shipping fee" },
        expected_tool_calls: [{ tool: "lookup_order", expected_params: null }],
      },
      source: { type: "conversation", conversation_id: conversationId },
      drafted: ["persona", "user_context", "expected_outcomes"],
      notes: [],
    });
    const asked = fake.requests.filter((r) => r.body?.response_format?.json_schema?.name === "case_draft_persona");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.body.model).toBe("fake-model");
    const prompt = asked[0]!.body.messages.at(-1).content as string;
    for (const line of ["USER: Where is my order 1042?", "USER: It was due Monday.", "USER: Can I get a refund on shipping?"]) {
      expect(prompt).toContain(line);
    }
    expect(prompt).toContain("AGENT CALLS TOOL lookup_order");

    const withParams = await draft(conversationId, { suite_id: suiteId, tool_params: true });
    expect(withParams.json.test_case.expected_tool_calls).toEqual([{ tool: "lookup_order", expected_params: { order_id: "1042" } }]);
  });

  it("drafts a single-turn case, with outcomes from the answer only when asked", async () => {
    const plain = await draft(singleId, { suite_id: suiteId });
    expect(plain.json).toMatchObject({
      kind: "single",
      test_case: { initial_message: "What are your opening hours?", max_turns: null, persona: null, expected_outcomes: null },
      drafted: [],
      notes: [],
    });
    expect(fake.requests).toHaveLength(0);

    fake.addRule({
      match: { schemaName: "case_draft_outcomes" },
      reply: { json: { expected_outcomes: [{ label: "states weekday hours", description: "Says the store is open 9 to 5 on weekdays" }] } },
    });
    const asked = await draft(singleId, { suite_id: suiteId, draft_outcomes: true });
    expect(asked.json.test_case.expected_outcomes).toEqual({ "states weekday hours": "Says the store is open 9 to 5 on weekdays" });
    expect(asked.json.drafted).toEqual(["expected_outcomes"]);
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toContain("AGENT: We are open 9 to 5, Monday to Friday.");
  });

  it("leaves the drafted fields out and says why without a judge model, or when the judge's answer is unusable", async () => {
    const bare = await draft(conversationId, { suite_id: bareSuiteId });
    expect(bare.json).toMatchObject({
      kind: "persona",
      test_case: { initial_message: "Where is my order 1042?", max_turns: 5, persona: null, user_context: null, expected_outcomes: null },
      drafted: [],
    });
    expect(bare.json.notes).toEqual([expect.stringContaining("because the suite “no judge” has no judge model. Write them yourself.")]);
    expect(fake.requests).toHaveLength(0);

    fake.addRule({ match: { schemaName: "case_draft_persona" }, reply: { json: { persona: { type: "" } } } });
    const broken = await draft(conversationId, { suite_id: suiteId });
    expect(broken.json).toMatchObject({ test_case: { persona: null, user_context: null, expected_outcomes: null }, drafted: [] });
    expect(broken.json.notes).toEqual([expect.stringContaining("could not be used")]);

    fake.reset();
    fake.addRule({ match: { schemaName: "case_draft_persona" }, reply: { status: 400 } });
    const refused = await draft(conversationId, { suite_id: suiteId });
    expect(refused.status).toBe(200);
    expect(refused.json).toMatchObject({ test_case: { persona: null }, drafted: [] });
    expect(refused.json.notes).toEqual([expect.stringContaining("the judge model did not answer")]);
  });

  it("answers 400 for a suite of another workspace and 404 for an unknown conversation", async () => {
    const other = await makeWorkspace("owner");
    const foreign = await db.suite.create({
      data: {
        workspaceId: other.workspace.id,
        agentId: (await db.agent.create({ data: { workspaceId: other.workspace.id, name: "x", kind: "http" } })).id,
        name: "x",
      },
    });
    const res = await draft(conversationId, { suite_id: foreign.id });
    expect(res.status).toBe(400);
    expect(res.json.error.issues[0].path).toBe("suite_id");
    expect((await draft("00000000-0000-4000-8000-000000000000", { suite_id: suiteId })).status).toBe(404);
    expect((await draft(conversationId, { suite_id: suiteId, kind: "chatty" })).json.error.issues[0].path).toBe("kind");
  });

  it("saves the reviewed draft with its source, and the case runs green against the same agent", async () => {
    fake.addRule({ match: { schemaName: "case_draft_persona" }, reply: { json: PERSONA_DRAFT } });
    const drafted = (await draft(conversationId, { suite_id: suiteId })).json;
    const saved = await call(createCaseRoute, {
      method: "POST",
      token: editor,
      params: { id: suiteId },
      body: { ...drafted.test_case, source: drafted.source },
      url: `/api/v1/suites/${suiteId}/test-cases`,
    });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.json.source).toEqual({
      type: "conversation",
      conversation_id: conversationId,
      service: "support-bot",
      time: "2026-11-25T14:02:00.000Z",
    });
    const forged = await call(createCaseRoute, {
      method: "POST",
      token: editor,
      params: { id: suiteId },
      body: { ...drafted.test_case, source: { type: "conversation", conversation_id: "00000000-0000-4000-8000-000000000000" } },
      url: `/api/v1/suites/${suiteId}/test-cases`,
    });
    expect(forged.status).toBe(400);
    expect(forged.json.error.issues[0].path).toBe("source.conversation_id");

    fake.reset();
    fake.addRule({
      match: { hasTools: true, afterToolResult: false },
      reply: { toolCalls: [{ name: "lookup_order", arguments: { order_id: "1042" } }] },
      times: 1,
    });
    fake.addRule({ match: { hasTools: true }, reply: { content: "Your order ships tomorrow and I refunded the shipping fee." } });
    fake.addRule({
      match: { schemaName: "simulator_turn" },
      reply: { json: { message: "Thanks!", should_end: true, end_reason: "satisfied" } },
    });
    fake.addRule({
      match: { schemaName: "outcome_verdicts" },
      reply: { json: { o1: { reasoning: "Shipping refunded in turn 1", evidence_turns: [1], verdict: "pass" } } },
    });
    const run = await runToEnd(ctx, suiteId, { case_ids: [saved.json.id] });
    const { data } = await listCaseResults(ctx, run.id, { limit: 10 });
    expect(data).toHaveLength(1);
    expect(data[0], JSON.stringify(data[0])).toMatchObject({ status: "passed" });

    // The run's transcript drafts a case too ("Make a test case" on the case view), recording the result as its source.
    const fromResult = await draftCaseFromCaseResult(ctx, data[0]!.id, { suite_id: suiteId, draft_outcomes: false, tool_params: true });
    expect(fromResult).toMatchObject({
      kind: "single",
      source: { type: "case_result", case_result_id: data[0]!.id },
      test_case: {
        initial_message: "Where is my order 1042?",
        tags: ["from-run"],
        expected_tool_calls: [{ tool: "lookup_order", expected_params: { order_id: "1042" } }],
      },
    });
    expect(fromResult.test_case.description).toMatch(/^Drafted from the transcript of “Where is my order 1042\?” in run #\d+\.$/);
    const again = await createTestCase(ctx, suiteId, { ...fromResult.test_case, source: fromResult.source });
    expect(again.source).toEqual({ type: "case_result", case_result_id: data[0]!.id, run_id: run.id, time: expect.any(String) });
  });

  it("drafts cases in bulk as drafts, reporting the ones that could not be drafted", async () => {
    fake.addRule({ match: { schemaName: "case_draft_persona" }, reply: { json: PERSONA_DRAFT } });
    const missing = "00000000-0000-4000-8000-000000000001";
    const res = await call(bulkRoute, {
      method: "POST",
      token: editor,
      params: { id: suiteId },
      body: { conversation_ids: [conversationId, singleId, missing] },
      url: `/api/v1/suites/${suiteId}/test-cases/from-conversations`,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.created.map((c: { conversation_id: string; kind: string }) => [c.conversation_id, c.kind])).toEqual([
      [conversationId, "persona"],
      [singleId, "single"],
    ]);
    expect(res.json.failed).toEqual([{ conversation_id: missing, message: expect.stringContaining("not found") }]);
    const cases = await db.testCase.findMany({
      where: { id: { in: res.json.created.map((c: { test_case_id: string }) => c.test_case_id) } },
    });
    expect(cases.map((c) => c.status)).toEqual(["draft", "draft"]);
    expect(cases.every((c) => (c.source as { type: string }).type === "conversation")).toBe(true);
  });
});
