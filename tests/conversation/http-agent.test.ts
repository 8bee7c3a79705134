import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { withFakeOpenAI } from "../helpers/run-stack";
import { fakeEndpoint } from "../llm/helpers";
import { runConversation } from "@/lib/conversation/run-conversation";
import type { AgentRuntime, HttpAgentRequest } from "@/lib/conversation";
import { LlmClient } from "@/lib/llm/client";
import { resetEndpointLimiters } from "@/lib/llm/concurrency";
import type { CallRecord } from "@/lib/llm/types";
import { persona, simulatorSays, testCase } from "./helpers";

type Handler = (body: HttpAgentRequest, req: http.IncomingMessage) => { status?: number; json?: unknown; text?: string };

let server: http.Server;
let url: string;
let handler: Handler;
const received: { body: HttpAgentRequest; headers: http.IncomingHttpHeaders }[] = [];
const fake = withFakeOpenAI();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      const body = JSON.parse(raw) as HttpAgentRequest;
      received.push({ body, headers: req.headers });
      const out = handler(body, req);
      res.writeHead(out.status ?? 200, { "content-type": "application/json" });
      res.end(out.text ?? JSON.stringify(out.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent?token=secret`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  received.length = 0;
  resetEndpointLimiters();
});

const agent = (): AgentRuntime => ({ kind: "http", url, headers: { "x-agent-key": "k-123" }, timeoutMs: 2000 });
const lastUser = (b: HttpAgentRequest) => b.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";

describe("HTTP agents", () => {
  it("posts the conversation, variables and case, and records the reply, tool calls and usage", async () => {
    handler = (b) => ({
      json: {
        reply: `Echo: ${lastUser(b)}`,
        tool_calls: [
          { name: "lookup_order", arguments: { id: 42 }, result: { status: "shipped" } },
          { name: "notify", arguments: '{"x":1}' },
        ],
        usage: { prompt_tokens: 11, completion_tokens: 5 },
      },
    });
    const records: CallRecord[] = [];
    const res = await runConversation({
      agent: agent(),
      testCase: testCase({ initial_message: "Order {{order}} please" }),
      variables: { order: 42, tier: "gold" },
      runId: "run-9",
      onRecord: (r) => records.push(r),
    });
    expect(res.error).toBeNull();
    expect(res.endReason).toBe("single_turn");
    expect(res.finalResponse).toBe("Echo: Order 42 please");
    expect(res.promptTokens).toBe(11);
    expect(res.completionTokens).toBe(5);
    expect(res.toolCalls).toEqual([
      { id: expect.any(String), name: "lookup_order", arguments: { id: 42 } },
      { id: expect.any(String), name: "notify", arguments: { x: 1 } },
    ]);
    expect(res.transcript.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(res.transcript[2]).toMatchObject({ tool_call_id: res.transcript[1]!.tool_calls![0]!.id, content: '{"status":"shipped"}' });

    expect(received).toHaveLength(1);
    const sent = received[0]!;
    expect(sent.headers["x-agent-key"]).toBe("k-123");
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(sent.body).toEqual({
      messages: [{ role: "user", content: "Order 42 please" }],
      variables: { order: 42, tier: "gold" },
      test_case: { id: testCase().id, name: "A case" },
      run_id: "run-9",
    });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ purpose: "agent", attempts: 1, error: null });
    expect(JSON.stringify(records[0])).not.toContain("secret");
  });

  it("runs a simulated conversation until the agent signals the end", async () => {
    handler = (b) => ({ json: { reply: `Turn ${b.messages.filter((m) => m.role === "user").length}`, end: b.messages.length >= 3 } });
    simulatorSays(fake, [{ message: "And then?" }, { message: "Anything else?" }]);
    const res = await runConversation({
      agent: agent(),
      testCase: testCase({ persona, initial_message: "Hi" }),
      runId: "r",
      simulator: new LlmClient(fakeEndpoint(fake)),
    });
    expect(res.endReason).toBe("agent_ended");
    expect(res.turns).toBe(2);
    expect(received[1]!.body.messages.map((m) => m.content)).toEqual(["Hi", "Turn 1", "And then?"]);
  });

  it("fails clearly and without retrying on a response that breaks the contract", async () => {
    handler = () => ({ json: { message: "hi" } });
    const records: CallRecord[] = [];
    const res = await runConversation({ agent: agent(), testCase: testCase(), runId: "r", onRecord: (r) => records.push(r) });
    expect(res.endReason).toBe("error");
    expect(res.error).toMatchObject({ type: "agent", message: expect.stringMatching(/HTTP agent contract.*reply/) });
    expect(received).toHaveLength(1);
    expect(records[0]).toMatchObject({ errorType: "invalid_response", response: '{"message":"hi"}' });
  });

  it("retries 5xx with the same policy, and does not retry a 4xx", async () => {
    let n = 0;
    handler = () => (n++ === 0 ? { status: 502, text: "bad gateway" } : { json: { reply: "ok" } });
    const ok = await runConversation({ agent: agent(), testCase: testCase(), runId: "r" });
    expect(ok.finalResponse).toBe("ok");
    expect(ok.retries).toBe(1);
    expect(received).toHaveLength(2);

    received.length = 0;
    handler = () => ({ status: 403, json: { error: "forbidden" } });
    const denied = await runConversation({ agent: agent(), testCase: testCase(), runId: "r" });
    expect(denied.error).toMatchObject({ type: "agent", message: expect.stringMatching(/HTTP 403/) });
    expect(received).toHaveLength(1);
  });

  it("reports a non-JSON body as an invalid response", async () => {
    handler = () => ({ text: "<html>oops</html>" });
    const res = await runConversation({ agent: agent(), testCase: testCase(), runId: "r", retryPolicy: { initialDelayMs: 1 } });
    expect(res.error?.message).toMatch(/not JSON/);
    expect(received).toHaveLength(3);
  });
});
