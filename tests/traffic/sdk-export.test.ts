/**
 * The real OpenTelemetry JS SDK and its OTLP/HTTP exporters (protobuf and JSON) send a three-turn
 * conversation with a tool call to the receiver's route handler over a loopback HTTP server; the
 * conversation Assay stored is checked field by field against what the fixture sent.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { POST as ingest } from "@/app/api/v1/otlp/v1/traces/route";
import { GET as listRoute } from "@/app/api/v1/conversations/route";
import { GET as getRoute } from "@/app/api/v1/conversations/[id]/route";
import { call } from "../helpers/api";
import { makeApiKey, makeWorkspace } from "../helpers/factories";
import { closeServer, listenOnLoopback } from "../helpers/loopback";
import { emitThreeTurnConversation, type SentConversation } from "./otel-fixtures";

let token: string;
let server: http.Server;
let url: string;
const statuses: number[] = [];

beforeAll(async () => {
  const { workspace } = await makeWorkspace("owner");
  token = await makeApiKey(workspace.id, "editor");
  // Each exporter request goes to the route handler as Next would hand it over.
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const answer = await ingest(
        new NextRequest(`http://localhost${req.url}`, { method: req.method, headers, body: Buffer.concat(chunks) }),
        { params: Promise.resolve({}) },
      );
      statuses.push(answer.status);
      res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/octet-stream" });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  url = `${await listenOnLoopback(server)}/api/v1/otlp/v1/traces`;
});

afterAll(async () => {
  await closeServer(server);
});

async function stored(sent: SentConversation) {
  const page = await call(listRoute, { token, url: `/api/v1/conversations?service=${encodeURIComponent(sent.serviceName)}` });
  expect(page.json.data).toHaveLength(1);
  return (await call(getRoute, { token, params: { id: page.json.data[0].id } })).json;
}

describe("the real OpenTelemetry exporters → the OTLP route", () => {
  for (const encoding of ["protobuf", "json"] as const) {
    it(`stores the three-turn conversation sent as ${encoding}, field by field`, async () => {
      statuses.length = 0;
      const sent = await emitThreeTurnConversation(
        { url, headers: { Authorization: `Bearer ${token}` }, encoding },
        { serviceName: `sdk-${encoding}-agent` },
      );
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const c = await stored(sent);
      expect(c).toMatchObject({
        conversation_id: sent.conversationId,
        service_name: sent.serviceName,
        user_turns: sent.userTurns,
        model: sent.model,
        input_tokens: sent.inputTokens,
        output_tokens: sent.outputTokens,
        latency_ms: sent.latencyMs,
        llm_calls: sent.llmCalls,
        span_count: sent.spanCount,
        has_error: sent.errors.length > 0,
        errors: sent.errors,
        started_at: sent.startedAt.toISOString(),
        ended_at: sent.endedAt.toISOString(),
      });
      expect(c.trace_ids.toSorted()).toEqual(sent.traceIds.toSorted());
      expect(c.messages).toEqual(sent.messages);
      expect(c.tool_calls.map(({ duration_ms: _ms, ...t }: { duration_ms: number }) => t)).toEqual(sent.toolCalls);
      expect(c.tool_names).toEqual([...new Set(sent.toolCalls.map((t) => t.name))]);
      expect(c.first_user_message).toBe(sent.messages.find((m) => m.role === "user")?.content);
    });
  }
});
