import { beforeEach, describe, expect, it } from "vitest";
import { withFakeOpenAI } from "../helpers/run-stack";
import { LlmCallCache, LlmClient } from "@/lib/llm/client";
import { resetEndpointLimiters, setEndpointConcurrency } from "@/lib/llm/concurrency";
import { toEvalLlm } from "@/lib/llm/eval-llm";
import { LlmError } from "@/lib/llm/errors";
import type { CallRecord } from "@/lib/llm/types";
import { fakeEndpoint } from "./helpers";

const fake = withFakeOpenAI();
beforeEach(() => resetEndpointLimiters());

const verdictSchema = {
  type: "object",
  properties: { verdict: { type: "string", enum: ["pass", "fail"] }, reasoning: { type: "string" } },
  required: ["verdict", "reasoning"],
  additionalProperties: false,
};

describe("chat", () => {
  it("sends the endpoint's model and defaults, and records the exact body and raw response", async () => {
    const records: CallRecord[] = [];
    const client = new LlmClient(fakeEndpoint(fake, { temperature: 0.3, maxTokens: 77 }));
    const res = await client.chat(
      {
        messages: [{ role: "user", content: "check weather" }],
        tools: [{ type: "function", function: { name: "weather", parameters: { type: "object", properties: {} } } }],
      },
      { purpose: "agent", onRecord: (r) => records.push(r) },
    );
    const sent = fake.requests[0]!.body;
    expect(sent).toMatchObject({ model: "gpt-4o-mini", temperature: 0.3, max_tokens: 77 });
    expect(fake.requests[0]!.headers.authorization).toBe("Bearer sk-test");
    expect(res.message.tool_calls).toEqual([{ id: expect.any(String), name: "weather", arguments: "{}" }]);
    expect(res.usage.prompt_tokens).toBeGreaterThan(0);
    expect(records).toHaveLength(1);
    expect(records[0]!.request).toEqual(sent);
    expect(JSON.parse(records[0]!.response!)).toMatchObject({ object: "chat.completion" });
    expect(records[0]).toMatchObject({ purpose: "agent", model: "gpt-4o-mini", attempts: 1, cached: false, error: null });
  });

  it("omits temperature when neither the call nor the endpoint sets one, and sends no key when there is none", async () => {
    const client = new LlmClient(fakeEndpoint(fake, { apiKey: null }));
    await client.chat({ messages: [{ role: "user", content: "hi" }], temperature: null }, { purpose: "agent" });
    expect(fake.requests[0]!.body).not.toHaveProperty("temperature");
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
  });
});

describe("json", () => {
  it("asks for strict json_schema at temperature 0 and returns the raw content", async () => {
    fake.addRule({ match: { schemaName: "verdict" }, reply: { json: { verdict: "pass", reasoning: "ok" } } });
    const out = await new LlmClient(fakeEndpoint(fake, { temperature: 0.9 })).json({
      purpose: "judge",
      messages: [{ role: "user", content: "judge this" }],
      schemaName: "verdict",
      schema: verdictSchema,
    });
    expect(JSON.parse(out.raw)).toEqual({ verdict: "pass", reasoning: "ok" });
    expect(fake.requests[0]!.body).toMatchObject({
      temperature: 0,
      response_format: { type: "json_schema", json_schema: { name: "verdict", strict: true, schema: verdictSchema } },
    });
  });

  it("falls back once to a forced function call when json_schema is rejected, and remembers it", async () => {
    fake.addRule({
      match: { schemaName: "verdict" },
      reply: { status: 400, content: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model." },
    });
    fake.addRule({
      match: { hasTools: true },
      reply: { toolCalls: [{ name: "verdict", arguments: { verdict: "fail", reasoning: "no" } }] },
    });
    const records: CallRecord[] = [];
    const client = new LlmClient(fakeEndpoint(fake));
    const req = {
      purpose: "judge" as const,
      messages: [{ role: "user" as const, content: "judge" }],
      schemaName: "verdict",
      schema: verdictSchema,
      onRecord: (r: CallRecord) => records.push(r),
    };
    const out = await client.json(req);
    expect(JSON.parse(out.raw)).toEqual({ verdict: "fail", reasoning: "no" });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.body).toMatchObject({
      temperature: 0,
      tools: [{ type: "function", function: { name: "verdict", parameters: verdictSchema } }],
      tool_choice: { type: "function", function: { name: "verdict" } },
    });
    expect(fake.requests[1]!.body).not.toHaveProperty("response_format");
    expect(records.map((r) => r.errorType)).toEqual(["client_error", null]);

    await client.json(req);
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests[2]!.body).toHaveProperty("tool_choice");
  });

  it("does not fall back on an unrelated 400", async () => {
    fake.addRule({ reply: { status: 400, content: "Bad messages." } });
    const err = await new LlmClient(fakeEndpoint(fake))
      .json({ purpose: "judge", messages: [{ role: "user", content: "x" }], schemaName: "verdict", schema: verdictSchema })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect(fake.requests).toHaveLength(1);
  });

  it("serves repeated identical calls from the run cache and records them as cached", async () => {
    const cache = new LlmCallCache();
    const records: CallRecord[] = [];
    const client = new LlmClient(fakeEndpoint(fake), { cache, onRecord: (r) => records.push(r) });
    const req = {
      purpose: "judge" as const,
      messages: [{ role: "user" as const, content: "same" }],
      schemaName: "verdict",
      schema: verdictSchema,
    };
    const a = await client.json(req);
    const b = await client.json(req);
    const c = await client.json({ ...req, messages: [{ role: "user", content: "different" }] });
    expect(b.raw).toBe(a.raw);
    expect(b.cached).toBe(true);
    expect(c.cached).toBe(false);
    expect(fake.requests).toHaveLength(2);
    expect(records.map((r) => r.cached)).toEqual([false, true, false]);
    expect(records[1]!.response).toBe(records[0]!.response);
  });
});

describe("embed", () => {
  it("returns one vector per text in order, from the embedding model", async () => {
    const vectors = await new LlmClient(fakeEndpoint(fake)).embed(["alpha beta", "gamma", "alpha beta"]);
    expect(vectors).toHaveLength(3);
    expect(vectors[0]).toHaveLength(64);
    expect(vectors[2]).toEqual(vectors[0]);
    expect(vectors[1]).not.toEqual(vectors[0]);
    expect(fake.requests[0]!.body).toMatchObject({ model: "text-embedding-3-small", encoding_format: "float" });
  });

  it("fails clearly without an embedding model, without a request", async () => {
    const err = await new LlmClient(fakeEndpoint(fake, { embeddingModel: null })).embed(["x"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as Error).message).toMatch(/no embedding model/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("toEvalLlm", () => {
  it("adapts the client to the evaluation library with the case's signal and record sink", async () => {
    const records: CallRecord[] = [];
    const llm = toEvalLlm(new LlmClient(fakeEndpoint(fake)), { onRecord: (r) => records.push(r) });
    expect(llm.model).toBe("gpt-4o-mini");
    const out = await llm.json({
      purpose: "metric",
      messages: [{ role: "user", content: "score" }],
      schemaName: "verdict",
      schema: verdictSchema,
    });
    expect(JSON.parse(out.raw)).toHaveProperty("verdict");
    expect(await llm.embed(["a"])).toHaveLength(1);
    expect(records.map((r) => r.purpose)).toEqual(["metric", "check"]);

    const controller = new AbortController();
    controller.abort();
    const cancelled = toEvalLlm(new LlmClient(fakeEndpoint(fake)), { signal: controller.signal });
    const err = await cancelled
      .json({ purpose: "judge", messages: [{ role: "user", content: "x" }], schemaName: "verdict", schema: verdictSchema })
      .catch((e: unknown) => e);
    expect((err as LlmError).type).toBe("aborted");
  });
});

describe("per-endpoint concurrency cap", () => {
  it("never has more than the cap in flight, across clients of the same endpoint", async () => {
    fake.setLatency(60);
    const endpoint = fakeEndpoint(fake);
    setEndpointConcurrency(endpoint.id, 4);
    const clients = [new LlmClient(endpoint), new LlmClient(endpoint)];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => clients[i % 2]!.chat({ messages: [{ role: "user", content: `q${i}` }] }, { purpose: "agent" })),
    );
    const elapsed = performance.now() - started;
    expect(fake.requests).toHaveLength(20);
    expect(fake.maxConcurrent()).toBe(4);
    // 20 calls, 4 at a time, 60 ms each: at least 5 waves
    expect(elapsed).toBeGreaterThanOrEqual(290);
  });

  it("keeps endpoints independent", async () => {
    fake.setLatency(60);
    const a = fakeEndpoint(fake);
    const b = fakeEndpoint(fake);
    setEndpointConcurrency(a.id, 2);
    setEndpointConcurrency(b.id, 2);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        new LlmClient(i % 2 ? a : b).chat({ messages: [{ role: "user", content: "x" }] }, { purpose: "agent" }),
      ),
    );
    expect(fake.maxConcurrent()).toBe(4);
  });
});
