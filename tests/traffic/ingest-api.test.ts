/**
 * The OTLP receiver and the conversation API through their real route handlers: a conversation
 * sent over several requests in any order comes out as one ordered transcript; a trace stored
 * without a conversation id joins its conversation once a later span names it; retries are
 * no-ops; the list filters and pages in SQL; ingest-only keys can send and nothing else; limits
 * and malformed bodies answer 4xx as the OTLP specification says; retention removes old traffic.
 */
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as ingest } from "@/app/api/v1/otlp/v1/traces/route";
import { GET as listRoute } from "@/app/api/v1/conversations/route";
import { GET as getRoute } from "@/app/api/v1/conversations/[id]/route";
import { db } from "@/lib/db";
import { createApiKey } from "@/lib/api-keys/service";
import { runCleanup } from "@/lib/retention/cleanup";
import { ExportTraceServiceRequest, ExportTraceServiceResponse } from "@/lib/traffic/otlp/proto";
import { call, readAllPages } from "../helpers/api";
import { makeApiKey, makeWorkspace, waitFor } from "../helpers/factories";
import { agentSpan, chatSpan, hexId, otlpRequest, span, supportConversation } from "./spans";

let workspaceId: string;
let editor: string;
let viewer: string;

beforeAll(async () => {
  const { workspace } = await makeWorkspace("owner");
  workspaceId = workspace.id;
  editor = await makeApiKey(workspaceId, "editor");
  viewer = await makeApiKey(workspaceId, "viewer");
});

const send = (body: unknown, token = editor, headers: Record<string, string> = {}) =>
  call(ingest, { method: "POST", token, body, url: "/api/v1/otlp/v1/traces", headers });
const list = (query: string, token = viewer) => call(listRoute, { token, url: `/api/v1/conversations?${query}` });
const get = (id: string, token = viewer) => call(getRoute, { token, params: { id }, url: `/api/v1/conversations/${id}` });

describe("OTLP traces → conversations", () => {
  it("assembles a conversation sent turn by turn in reverse order into one ordered transcript, and a retry changes nothing", async () => {
    const conversationId = `conv-${hexId(4)}`;
    const turns = supportConversation(conversationId, Date.UTC(2026, 10, 20, 9, 0));
    for (const spans of turns.toReversed()) {
      const res = await send(otlpRequest("support-bot", spans));
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({});
    }
    expect((await send(otlpRequest("support-bot", turns[1]!))).status).toBe(200);

    const page = await list(`service=support-bot&q=${encodeURIComponent("order 1042")}`);
    expect(page.status).toBe(200);
    expect(page.json.data).toHaveLength(1);
    const summary = page.json.data[0];
    expect(summary).toMatchObject({
      conversation_id: conversationId,
      service_name: "support-bot",
      first_user_message: "Where is my order 1042?",
      user_turns: 3,
      tool_names: ["lookup_order"],
      model: "gpt-test",
      // Four model calls: 40+50+70+90 in, 8+12+12+12 out; the agent spans' own usage is not added.
      input_tokens: 250,
      output_tokens: 44,
      // Three agent turns of 900 ms each (their model calls are inside them).
      latency_ms: 2700,
      has_error: false,
      span_count: 8,
      started_at: new Date(Date.UTC(2026, 10, 20, 9, 0)).toISOString(),
    });

    const one = await get(summary.id);
    expect(one.status).toBe(200);
    expect(one.json.messages.map((m: { role: string; content: string | null }) => [m.role, m.content])).toEqual([
      ["system", "You are the support agent."],
      ["user", "Where is my order 1042?"],
      ["assistant", null],
      ["tool", '{"status":"delayed","ships":"tomorrow"}'],
      ["assistant", "Let me look that up."],
      ["user", "It was due Monday."],
      ["assistant", "It ships tomorrow; sorry for the delay."],
      ["user", "Can I get a refund on shipping?"],
      ["assistant", "Yes, I refunded the shipping fee."],
    ]);
    expect(one.json.messages[2].tool_calls).toEqual([{ id: "call_0", name: "lookup_order", arguments: '{"order_id":"1042"}' }]);
    expect(one.json.tool_calls).toEqual([
      {
        id: "call_0",
        name: "lookup_order",
        arguments: { order_id: "1042" },
        result: '{"status":"delayed","ships":"tomorrow"}',
        error: null,
        duration_ms: 40,
      },
    ]);
    expect(one.json.trace_ids).toHaveLength(3);
    expect(one.json.llm_calls).toBe(4);
    expect(await db.trafficSpan.count({ where: { workspaceId, conversationKey: `c:${conversationId}` } })).toBe(8);
  });

  it("moves a trace stored without a conversation id into its conversation when a later span of it names one", async () => {
    const traceId = hexId(16);
    const conversationId = `late-${hexId(4)}`;
    const t0 = Date.UTC(2026, 10, 21, 10, 0);
    const chat = chatSpan({
      traceId,
      startMs: t0 + 5,
      endMs: t0 + 200,
      input: [{ role: "user", text: "Is the store open on Sunday?" }],
      output: { role: "assistant", text: "Yes, 10 to 4." },
    });
    expect((await send(otlpRequest("late-bot", [chat]))).status).toBe(200);
    const before = await list("service=late-bot");
    expect(before.json.data).toHaveLength(1);
    expect(before.json.data[0].conversation_id).toBeNull();

    const agent = agentSpan({ traceId, conversationId, startMs: t0, endMs: t0 + 250 });
    expect((await send(otlpRequest("late-bot", [agent]))).status).toBe(200);
    const after = await list("service=late-bot");
    expect(after.json.data).toHaveLength(1);
    expect(after.json.data[0]).toMatchObject({
      conversation_id: conversationId,
      span_count: 2,
      first_user_message: "Is the store open on Sunday?",
    });
    expect(await db.trafficConversation.count({ where: { workspaceId, key: `t:${traceId}` } })).toBe(0);
  });

  it("merges exports of one conversation sent at the same time, named and unnamed spans of a trace alike, into one conversation", async () => {
    const conversationId = `race-${hexId(4)}`;
    const t0 = Date.UTC(2026, 10, 23, 7, 0);
    const exports = Array.from({ length: 6 }, (_, i) => {
      const traceId = hexId(16);
      const agent = agentSpan({ traceId, conversationId, startMs: t0 + i * 1000, endMs: t0 + i * 1000 + 500 });
      const chat = chatSpan({
        traceId,
        parentSpanId: agent.spanId as string,
        startMs: t0 + i * 1000 + 10,
        endMs: t0 + i * 1000 + 400,
        input: [{ role: "user", text: `turn ${i}` }],
        output: { role: "assistant", text: `answer ${i}` },
      });
      // The unnamed model call and its named agent span travel in separate exports.
      return [otlpRequest("race-bot", [chat]), otlpRequest("race-bot", [agent])];
    });
    const answers = await Promise.all(exports.flat().map((body) => send(body)));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    // Assembled in the background after the answers, before anyone reads.
    const pending = () =>
      db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM "TrafficPending" WHERE "workspaceId" = ${workspaceId}::uuid`;
    await waitFor(pending, (rows) => rows[0]!.n === 0);
    expect(await db.trafficConversation.findFirst({ where: { workspaceId, serviceName: "race-bot" } })).toMatchObject({
      userTurns: 6,
      spanCount: 12,
    });
    const listed = (await list("service=race-bot")).json.data;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ conversation_id: conversationId, span_count: 12, user_turns: 6 });
    expect(await db.trafficConversation.count({ where: { workspaceId, serviceName: "race-bot" } })).toBe(1);
  });

  it("filters by error, tool, turns, time and agent, and pages newest first without gaps or repeats", async () => {
    const service = `filter-bot-${hexId(3)}`;
    const base = Date.UTC(2026, 10, 22, 8, 0);
    for (let i = 0; i < 5; i++) {
      const traceId = hexId(16);
      const input = Array.from({ length: i + 1 }, (_, k) => ({ role: "user" as const, text: `question ${i}.${k}` }));
      await send(
        otlpRequest(service, [
          chatSpan({
            traceId,
            conversationId: `${service}-${i}`,
            startMs: base + i * 1000,
            endMs: base + i * 1000 + 100,
            input,
            output: { role: "assistant", text: `answer ${i}` },
            error: i === 3 ? "rate limited" : undefined,
          }),
        ]),
      );
    }
    const pages = await readAllPages<{ conversation_id: string }>(
      async (cursor) => (await list(`service=${service}&limit=2${cursor ? `&cursor=${cursor}` : ""}`)).json,
      2,
    );
    expect(pages.items.map((c) => c.conversation_id)).toEqual([4, 3, 2, 1, 0].map((i) => `${service}-${i}`));

    expect((await list(`service=${service}&has_error=true`)).json.data.map((c: { conversation_id: string }) => c.conversation_id)).toEqual([
      `${service}-3`,
    ]);
    expect((await list(`service=${service}&min_turns=4`)).json.data).toHaveLength(2);
    const from = new Date(base + 2500).toISOString();
    expect((await list(`service=${service}&from=${encodeURIComponent(from)}`)).json.data).toHaveLength(2);
    expect((await list(`service=${service}&tool=lookup_order`)).json.data).toHaveLength(0);

    const failing = (await get((await list(`service=${service}&has_error=true`)).json.data[0].id)).json;
    expect(failing.errors).toEqual([expect.stringContaining("rate limited")]);

    const agent = await db.agent.create({ data: { workspaceId, name: `agent-${service}`, kind: "http", otelServiceName: service } });
    const byAgent = await list(`agent_id=${agent.id}`);
    expect(byAgent.json.data).toHaveLength(5);
    expect(byAgent.json.data[0].agent).toEqual({ id: agent.id, name: agent.name });

    const bad = await list("min_turns=-1&from=yesterday");
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues.map((i: { path: string }) => i.path).sort()).toEqual(["from", "min_turns"]);
    expect((await list("cursor=!!!")).status).toBe(400);
  });

  it("lets an ingest-only key send traces and nothing else, and refuses viewers", async () => {
    const { token } = await createApiKey(
      { workspaceId, role: "admin", userId: null, apiKeyId: null },
      { name: "collector", role: "viewer", scope: "ingest" },
    );
    const traceId = hexId(16);
    const body = otlpRequest("ingest-only", [
      chatSpan({
        traceId,
        startMs: Date.now() - 1000,
        endMs: Date.now(),
        input: [{ role: "user", text: "hi" }],
        output: { role: "assistant", text: "hello" },
      }),
    ]);
    expect((await send(body, token)).status).toBe(200);
    const refused = await list("", token);
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toMatch(/only send traces/);
    expect((await send(body, viewer)).status).toBe(403);
    expect((await send(body, null as unknown as string)).status).toBe(401);
  });

  it("answers protobuf with protobuf, gzip works, invalid ids are a partial success, and limits and bad bodies are 4xx", async () => {
    const traceId = hexId(16);
    const good = chatSpan({
      traceId,
      conversationId: `pb-${hexId(4)}`,
      startMs: Date.now() - 500,
      endMs: Date.now(),
      input: [{ role: "user", text: "protobuf hello" }],
      output: { role: "assistant", text: "hi" },
    });
    const badId = { ...good, spanId: "00000000" };
    const json = otlpRequest("pb-bot", [good, badId]);

    // The same request as protobuf bytes (ids as bytes), gzip-encoded.
    const asBytes = (hex: string) => Buffer.from(hex, "hex");
    const message = ExportTraceServiceRequest.fromObject({
      resourceSpans: json.resourceSpans.map((rs) => ({
        ...rs,
        scopeSpans: rs.scopeSpans.map((ss) => ({
          ...ss,
          spans: ss.spans.map((s) => ({ ...s, traceId: asBytes(s.traceId as string), spanId: asBytes(s.spanId as string) })),
        })),
      })),
    });
    const bytes = gzipSync(ExportTraceServiceRequest.encode(message).finish());
    const res = await ingest(
      new (await import("next/server")).NextRequest("http://localhost/api/v1/otlp/v1/traces", {
        method: "POST",
        headers: { authorization: `Bearer ${editor}`, "content-type": "application/x-protobuf", "content-encoding": "gzip" },
        body: bytes,
      }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-protobuf");
    const answer = ExportTraceServiceResponse.toObject(ExportTraceServiceResponse.decode(new Uint8Array(await res.arrayBuffer())), {
      longs: Number,
    });
    expect(answer).toEqual({ partialSuccess: { rejectedSpans: 1, errorMessage: expect.stringMatching(/span/i) } });
    expect((await list("service=pb-bot")).json.data[0].first_user_message).toBe("protobuf hello");

    const partial = await send(json);
    expect(partial.status).toBe(200);
    // OTLP/JSON writes int64 as a decimal string.
    expect(partial.json.partialSuccess).toMatchObject({ rejectedSpans: "1", errorMessage: expect.stringMatching(/span/i) });

    const wrongType = await call(ingest, { method: "POST", token: editor, rawBody: "hello", contentType: "text/plain" });
    expect(wrongType.status).toBe(415);
    const malformed = await call(ingest, { method: "POST", token: editor, rawBody: "{not json", contentType: "application/json" });
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchObject({ code: 3, error: { code: "invalid_input" } });
    const notGzip = await send(json, editor, { "content-encoding": "gzip" });
    expect(notGzip.status).toBe(400);

    const long = chatSpan({
      ...{ traceId, startMs: 1, endMs: 2 },
      input: [{ role: "user", text: "x".repeat(300_000) }],
      output: { role: "assistant", text: "y" },
    });
    const tooLong = await send(otlpRequest("pb-bot", [long]));
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.error.issues[0].path).toMatch(/spans\[0\]\.attributes/);

    // A gzip bomb: 40 MB of nothing in a few kilobytes stops at the inflated limit.
    const bomb = await ingest(
      new (await import("next/server")).NextRequest("http://localhost/api/v1/otlp/v1/traces", {
        method: "POST",
        headers: { authorization: `Bearer ${editor}`, "content-type": "application/json", "content-encoding": "gzip" },
        body: gzipSync(Buffer.alloc(40 * 1024 * 1024, 0x20)),
      }),
      { params: Promise.resolve({}) },
    );
    expect(bomb.status).toBe(413);

    // Many invalid spans: all counted, the first ten reasons listed.
    const invalid = Array.from({ length: 30 }, () => ({ ...good, spanId: "00" }));
    const counted = await send(otlpRequest("pb-bot", invalid));
    expect(counted.json.partialSuccess.rejectedSpans).toBe("30");
    expect(counted.json.partialSuccess.errorMessage).toMatch(/; and 20 more$/);

    const farFuture = { ...good, startTimeUnixNano: "99999999999999999999" };
    const overflow = await send(otlpRequest("pb-bot", [farFuture]));
    expect(overflow.status).toBe(400);
    expect(overflow.json.error.issues[0].path).toMatch(/startTimeUnixNano$/);

    const many = Array.from({ length: 5001 }, () => span({ traceId, name: "x", startMs: 1, endMs: 2 }));
    const tooMany = await send(otlpRequest("pb-bot", many));
    expect(tooMany.status).toBe(413);
  });

  it("deletes conversations past the traffic retention with their spans, and keeps newer ones", async () => {
    const service = `retention-${hexId(3)}`;
    const day = 86_400_000;
    const now = Date.now();
    for (const [i, age] of [40, 2].entries()) {
      await send(
        otlpRequest(service, [
          chatSpan({
            traceId: hexId(16),
            conversationId: `${service}-${i}`,
            startMs: now - age * day,
            endMs: now - age * day + 100,
            input: [{ role: "user", text: `aged ${age} days` }],
            output: { role: "assistant", text: "ok" },
          }),
        ]),
      );
    }
    const preview = await runCleanup({ dryRun: true, settings: { days: 36_500, runs: 100_000, traffic_days: 14 } });
    expect(preview.conversations_deleted).toBeGreaterThanOrEqual(1);
    const result = await runCleanup({ settings: { days: 36_500, runs: 100_000, traffic_days: 14 }, confirm: true });
    expect(result.conversations_deleted).toBeGreaterThanOrEqual(1);
    const left = (await list(`service=${service}`)).json.data.map((c: { conversation_id: string }) => c.conversation_id);
    expect(left).toEqual([`${service}-1`]);
    expect(await db.trafficSpan.count({ where: { workspaceId, conversationKey: `c:${service}-0` } })).toBe(0);
  });
});
