import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { GET as exportRoute } from "@/app/api/v1/runs/[id]/export/route";
import { openAiChatLine } from "@/lib/runs/export-openai";
import { withRunStack } from "../helpers/run-stack";
import { call } from "../helpers/api";
import { makeApiKey, makeSuiteWithCases, makeWorkspace, runToEnd } from "../helpers/factories";

/**
 * GET /api/v1/runs/{id}/export?format=openai-jsonl: a real run on the fake OpenAI server (a tool
 * call answered by its mock, a plain answer, an agent that fails), exported through the route:
 * one line per finished result in the OpenAI chat format, tool calls and results included, the
 * agent's tools as function definitions, the failed-to-answer result left out.
 */

const { fake } = withRunStack();

describe("run transcripts as OpenAI chat JSONL", () => {
  it("writes one conversation per answered case, with tool calls, tool results and the agent's tools", async () => {
    const { ctx, workspace } = await makeWorkspace("editor");
    const key = await makeApiKey(workspace.id, "viewer");
    const { suite, agent } = await makeSuiteWithCases(ctx, 0, { baseUrl: fake.url });
    const tool = {
      name: "get_order_status",
      description: "Look up an order",
      parameters: { type: "object" },
      mock_response: { status: "shipped" },
    };
    await db.agent.update({ where: { id: agent.id }, data: { tools: [tool] } });
    await db.testCase.createMany({
      data: [
        {
          workspaceId: ctx.workspaceId,
          suiteId: suite.id,
          name: "tool",
          sortOrder: 0,
          initialMessage: "Where is order 7? use get_order_status",
        },
        { workspaceId: ctx.workspaceId, suiteId: suite.id, name: "plain", sortOrder: 1, initialMessage: "Say hello" },
        { workspaceId: ctx.workspaceId, suiteId: suite.id, name: "broken", sortOrder: 2, initialMessage: "explode please" },
      ],
    });
    fake.addRule({
      match: { lastUserContains: "get_order_status", afterToolResult: false },
      reply: { toolCalls: [{ name: "get_order_status", arguments: { order_id: "7" } }] },
    });
    fake.addRule({ match: { afterToolResult: true }, reply: { content: "Order 7 has shipped." } });
    fake.addRule({ match: { lastUserContains: "explode" }, reply: { status: 400 } });
    fake.addRule({ match: { lastUserContains: "hello" }, reply: { content: "Hello there!" } });

    const run = await runToEnd(ctx, suite.id);
    expect(run).toMatchObject({ total_cases: 3, error_cases: 1 });

    const res = await call(exportRoute, { url: `/api/v1/runs/${run.id}/export?format=openai-jsonl`, token: key, params: { id: run.id } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    expect(res.headers.get("content-disposition")).toContain(`run-${run.number}-transcripts.jsonl`);
    const lines = res.text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    const [toolLine, plainLine] = lines;
    expect(toolLine.tools).toEqual([
      { type: "function", function: { name: "get_order_status", description: "Look up an order", parameters: { type: "object" } } },
    ]);
    expect(toolLine.messages[0]).toEqual({ role: "system", content: "You are a helpful assistant." });
    expect(toolLine.messages[1]).toEqual({ role: "user", content: "Where is order 7? use get_order_status" });
    const call0 = toolLine.messages[2].tool_calls[0];
    expect(toolLine.messages[2]).toMatchObject({ role: "assistant", content: null });
    expect(call0).toMatchObject({ type: "function", function: { name: "get_order_status" } });
    expect(JSON.parse(call0.function.arguments)).toEqual({ order_id: "7" });
    expect(toolLine.messages[3]).toMatchObject({ role: "tool", tool_call_id: call0.id });
    expect(JSON.parse(toolLine.messages[3].content)).toEqual({ status: "shipped" });
    expect(toolLine.messages[4]).toEqual({ role: "assistant", content: "Order 7 has shipped." });
    expect(plainLine.messages.slice(1)).toEqual([
      { role: "user", content: "Say hello" },
      { role: "assistant", content: "Hello there!" },
    ]);

    // Another workspace's key, a malformed id and an unknown format.
    const other = await makeWorkspace("owner");
    const outsider = await makeApiKey(other.workspace.id, "owner");
    expect((await call(exportRoute, { url: `/api/v1/runs/${run.id}/export`, token: outsider, params: { id: run.id } })).status).toBe(404);
    expect((await call(exportRoute, { url: `/api/v1/runs/nope/export`, token: key, params: { id: "nope" } })).status).toBe(404);
    const bad = await call(exportRoute, { url: `/api/v1/runs/${run.id}/export?format=csv`, token: key, params: { id: run.id } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues[0].path).toBe("format");
  });

  it("writes a plain conversation without a tools key, and null content as empty text for user and tool messages", () => {
    expect(
      openAiChatLine(
        [
          { role: "user", content: null },
          { role: "assistant", content: "ok" },
        ],
        [],
      ),
    ).toEqual({
      messages: [
        { role: "user", content: "" },
        { role: "assistant", content: "ok" },
      ],
    });
  });
});
