import { beforeEach, describe, expect, it } from "vitest";
import { withFakeOpenAI } from "../helpers/run-stack";
import { runConversation } from "@/lib/conversation/run-conversation";
import { resetEndpointLimiters } from "@/lib/llm/concurrency";
import type { CallRecord } from "@/lib/llm/types";
import { chatAgent, testCase, tool } from "./helpers";

const fake = withFakeOpenAI();
beforeEach(() => resetEndpointLimiters());

type ChatBody = {
  messages: { role: string; content: string | null; tool_call_id?: string; tool_calls?: { id: string }[] }[];
  temperature?: number;
  max_tokens?: number;
};
const body = (i: number) => fake.requests[i]!.body as ChatBody;

describe("single-turn conversation", () => {
  it("sends the system prompt and initial message, answers a tool call with its mock, and ends with the final reply", async () => {
    const agent = chatAgent(fake, {
      systemPrompt: "You are the weather bot of {{city}}.",
      tools: [tool("get_weather", { temp_c: 21, sky: "clear" })],
    });
    const records: CallRecord[] = [];
    const res = await runConversation({
      agent,
      testCase: testCase({ initial_message: "Please use get_weather for {{city}}" }),
      variables: { city: "Oslo" },
      runId: "run-1",
      onRecord: (r) => records.push(r),
    });
    expect(res.error).toBeNull();
    expect(res.endReason).toBe("single_turn");
    expect(res.turns).toBe(1);
    expect(res.transcript.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant"]);
    const [system, user, call, toolMsg, final] = res.transcript;
    expect(system!.content).toBe("You are the weather bot of Oslo.");
    expect(user!.content).toBe("Please use get_weather for Oslo");
    const callId = call!.tool_calls![0]!.id;
    expect(call!.tool_calls).toEqual([{ id: callId, name: "get_weather", arguments: "{}" }]);
    expect(toolMsg).toMatchObject({ role: "tool", tool_call_id: callId, name: "get_weather", content: '{"temp_c":21,"sky":"clear"}' });
    expect(final!.content).toBe("Fake reply: Please use get_weather for Oslo");
    expect(res.finalResponse).toBe(final!.content);
    expect(res.toolCalls).toEqual([{ id: callId, name: "get_weather", arguments: {} }]);

    // The agent saw the tool result with the matching call id on its second call.
    expect(fake.requests).toHaveLength(2);
    const second = body(1).messages;
    expect(second.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(second[2]!.tool_calls![0]!.id).toBe(callId);
    expect(second[3]!.tool_call_id).toBe(callId);

    expect(res.promptTokens).toBeGreaterThan(0);
    expect(res.completionTokens).toBeGreaterThan(0);
    expect(records.map((r) => r.purpose)).toEqual(["agent", "agent"]);
  });

  it("sends a string mock response as-is and picks a mock by argument matchers", async () => {
    fake.addRule({
      match: { afterToolResult: false },
      reply: {
        toolCalls: [
          { name: "status", arguments: "plain" },
          { name: "lookup", arguments: { id: 2 } },
        ],
      },
      times: 1,
    });
    const agent = chatAgent(fake, {
      tools: [
        tool("status", "all systems go"),
        tool("lookup", [
          { when: { id: 1 }, response: "one" },
          { when: { id: 2 }, response: { name: "two" } },
        ]),
      ],
    });
    const res = await runConversation({ agent, testCase: testCase(), runId: "r" });
    const tools = res.transcript.filter((m) => m.role === "tool");
    expect(tools.map((m) => m.content)).toEqual(["all systems go", '{"name":"two"}']);
    expect(res.toolCalls.map((c) => c.arguments)).toEqual(["plain", { id: 2 }]);
  });

  it("answers an unmocked or unknown tool with an error the agent sees, and records it", async () => {
    fake.addRule({
      match: { afterToolResult: false },
      reply: {
        toolCalls: [
          { name: "refund", arguments: { order: 7 } },
          { name: "ghost", arguments: {} },
        ],
      },
      times: 1,
    });
    const agent = chatAgent(fake, { tools: [tool("refund", null)] });
    const res = await runConversation({ agent, testCase: testCase(), runId: "r" });
    expect(res.error).toBeNull();
    const tools = res.transcript.filter((m) => m.role === "tool");
    expect(tools.map((m) => JSON.parse(m.content!))).toEqual([
      { error: "tool refund is not available" },
      { error: "tool ghost is not available" },
    ]);
    expect(res.toolCalls[0]).toMatchObject({ name: "refund", arguments: { order: 7 }, error: expect.stringMatching(/no mock response/) });
    expect(res.toolCalls[1]).toMatchObject({ name: "ghost", error: expect.stringMatching(/not defined/) });
    expect(res.finalResponse).toBe("Fake reply: Hello there");
  });

  it("stops an agent that keeps calling tools after the tool-round cap", async () => {
    fake.addRule({ match: { hasTools: true }, reply: { toolCalls: [{ name: "search", arguments: { q: "again" } }] } });
    const agent = chatAgent(fake, { tools: [tool("search", { hits: [] })] });
    const res = await runConversation({ agent, testCase: testCase(), runId: "r", maxToolRounds: 3 });
    expect(res.endReason).toBe("error");
    expect(res.error).toEqual({ type: "agent", message: expect.stringMatching(/too many tool rounds/) });
    expect(fake.requests).toHaveLength(4);
    expect(res.transcript.filter((m) => m.role === "tool")).toHaveLength(3);
    expect(res.toolCalls).toHaveLength(4);
    expect(res.finalResponse).toBe("");
  });

  it("respects temperature and max-tokens overrides on the runtime", async () => {
    const agent = chatAgent(fake, { endpoint: { temperature: 0.2, maxTokens: 100 }, temperature: 0.7, maxTokens: 42 });
    await runConversation({ agent, testCase: testCase(), runId: "r" });
    expect(body(0)).toMatchObject({ temperature: 0.7, max_tokens: 42 });

    fake.reset();
    await runConversation({ agent: chatAgent(fake, { endpoint: { temperature: 0.2 } }), testCase: testCase(), runId: "r" });
    expect(body(0).temperature).toBe(0.2);
  });

  it("reports an agent failure after retries, distinct from timeouts", async () => {
    fake.addRule({ reply: { status: 500 } });
    const failed = await runConversation({ agent: chatAgent(fake), testCase: testCase(), runId: "r" });
    expect(failed.error).toMatchObject({ type: "agent", message: expect.stringMatching(/server_error, 3 attempts/) });
    expect(failed.retries).toBe(2);

    fake.reset();
    fake.addRule({ reply: { hang: true } });
    const slow = await runConversation({ agent: chatAgent(fake), testCase: testCase(), runId: "r", callTimeoutMs: 80 });
    expect(slow.error?.type).toBe("timeout");
    expect(slow.endReason).toBe("error");
  });

  it("ends as cancelled when the signal aborts an in-flight call", async () => {
    fake.addRule({ reply: { hang: true } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const res = await runConversation({ agent: chatAgent(fake), testCase: testCase(), runId: "r", signal: controller.signal });
    expect(performance.now() - started).toBeLessThan(500);
    expect(res.error?.type).toBe("cancelled");
    expect(res.transcript.map((m) => m.role)).toEqual(["system", "user"]);
  });

  it("does not call the agent when the case cannot run", async () => {
    const res = await runConversation({
      agent: chatAgent(fake, { systemPrompt: null }),
      testCase: testCase({ initial_message: null }),
      runId: "r",
    });
    expect(res.error?.type).toBe("agent");
    expect(fake.requests).toHaveLength(0);
  });
});
