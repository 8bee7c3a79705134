import { describe, expect, it } from "vitest";
import { decodeTraceRequest, DEFAULT_OTLP_LIMITS, OtlpDecodeError } from "@/lib/traffic/otlp/decode";
import { encodeTraceResponse, ExportTraceServiceRequest, ExportTraceServiceResponse } from "@/lib/traffic/otlp/proto";
import { conversationIdOf } from "@/lib/traffic/otlp/semconv";
import type { ReceivedSpan } from "@/lib/traffic/types";
import {
  emitEventConversation,
  emitThreeTurnConversation,
  exportSpans,
  timedSpan,
  withOtlpCapture,
  type CapturedRequest,
} from "./otel-fixtures";

const capture = withOtlpCapture();

/** Runs an emitter against the capture server and returns the one request it sent. */
async function captured<T>(emit: () => Promise<T>): Promise<{ sent: T; request: CapturedRequest }> {
  const before = capture.requests.length;
  const sent = await emit();
  expect(capture.requests.length).toBe(before + 1);
  return { sent, request: capture.requests[before]! };
}

const encodings = ["protobuf", "json"] as const;

function decodeError(run: () => unknown): OtlpDecodeError {
  try {
    run();
  } catch (error) {
    if (error instanceof OtlpDecodeError) return error;
    throw error;
  }
  throw new Error("expected an OtlpDecodeError");
}

describe("decodeTraceRequest on the real OpenTelemetry JS exporters' bodies", () => {
  it.each(encodings)("decodes every span of a GenAI conversation sent as %s", async (encoding) => {
    const startAt = new Date("2026-11-20T10:00:00.000Z");
    const headers = { Authorization: "Bearer assay_test_key" };
    const { sent, request } = await captured(() => emitThreeTurnConversation({ url: capture.url, headers, encoding }, { startAt }));
    expect(request.contentType).toBe(encoding === "protobuf" ? "application/x-protobuf" : "application/json");
    expect(request.headers.authorization).toBe("Bearer assay_test_key");

    const decoded = decodeTraceRequest(request.body, encoding);
    expect(decoded.rejectedSpans).toBe(0);
    expect(decoded.spans).toHaveLength(sent.spanCount);
    expect(sent.spanCount).toBe(8);
    for (const span of decoded.spans) {
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(span.serviceName).toBe("travel-agent");
      expect(span.resourceAttributes).toMatchObject({ "service.name": "travel-agent", "service.version": "1.4.2" });
      expect(span.scope).toBe("assay-test-agent");
      expect(conversationIdOf(span)).toBe(sent.conversationId);
    }
    expect(new Set(decoded.spans.map((span) => span.traceId))).toEqual(new Set(sent.traceIds));

    const agents = decoded.spans.filter((span) => span.attributes["gen_ai.operation.name"] === "invoke_agent");
    expect(agents).toHaveLength(3);
    for (const agent of agents) {
      expect(agent.parentSpanId).toBeNull();
      expect(agent.kind).toBe(2);
    }
    const firstAgent = agents.find((span) => span.startTimeUnixNano === "1795168800000000000")!;
    expect(firstAgent.endTimeUnixNano).toBe("1795168801000000000");
    expect(firstAgent.attributes["gen_ai.usage.input_tokens"]).toBe(50);

    const tool = decoded.spans.find((span) => span.name === "execute_tool get_weather")!;
    expect(tool.kind).toBe(3);
    expect(agents.map((span) => span.spanId)).toContain(tool.parentSpanId);
    expect(tool.attributes).toMatchObject({
      "gen_ai.tool.call.id": "call_weather_1",
      "gen_ai.tool.call.arguments": '{"city":"Paris","date":"Friday"}',
      "gen_ai.tool.call.result": "Rain, 14°C",
    });
    expect(tool.status).toEqual({ code: 0, message: null });
    expect(tool.startTimeUnixNano).toBe("1795168811000000000");
  });

  it("decodes the protobuf and the JSON encoding of the same spans to the same thing (ids aside)", async () => {
    const startAt = new Date("2026-11-21T08:00:00.000Z");
    const { request: proto } = await captured(() =>
      emitThreeTurnConversation({ url: capture.url, encoding: "protobuf" }, { startAt, conversationId: "same" }),
    );
    const { request: json } = await captured(() =>
      emitThreeTurnConversation({ url: capture.url, encoding: "json" }, { startAt, conversationId: "same" }),
    );
    const comparable = (spans: ReceivedSpan[]) =>
      spans
        .map((span) => ({ ...span, traceId: "", spanId: "", parentSpanId: span.parentSpanId === null ? null : "parent" }))
        .sort((a, b) => a.startTimeUnixNano.localeCompare(b.startTimeUnixNano) || a.name.localeCompare(b.name));
    expect(comparable(decodeTraceRequest(json.body, "json").spans)).toEqual(comparable(decodeTraceRequest(proto.body, "protobuf").spans));
  });

  it.each(encodings)("decodes span events and error statuses sent as %s", async (encoding) => {
    const { request } = await captured(() => emitEventConversation({ url: capture.url, encoding }));
    const spans = decodeTraceRequest(request.body, encoding).spans;
    const chats = spans
      .filter((span) => span.name.startsWith("chat "))
      .sort((a, b) => a.startTimeUnixNano.localeCompare(b.startTimeUnixNano));
    expect(chats[1]!.events.map((event) => event.name)).toEqual([
      "gen_ai.system.message",
      "gen_ai.user.message",
      "gen_ai.assistant.message",
      "gen_ai.tool.message",
      "gen_ai.choice",
    ]);
    expect(chats[1]!.events[3]!.attributes).toEqual({ content: "cancelled", id: "call_7" });
    expect(chats[0]!.events[2]!.timeUnixNano).toBe(chats[0]!.endTimeUnixNano);
    const failed = spans.find((span) => span.name === "execute_tool send_email")!;
    expect(failed.status).toEqual({ code: 2, message: "SMTP timed out" });
    expect(failed.attributes["error.type"]).toBe("TimeoutError");
  });
});

describe("decodeTraceRequest: OTLP/JSON as the spec allows it", () => {
  const traceId = "5B8EFFF798038103D269B633813FC60C";
  const body = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

  it("accepts snake_case names, int64 as numbers or strings, enum names, and structured attributes", () => {
    const decoded = decodeTraceRequest(
      body({
        resource_spans: [
          {
            resource: { attributes: [{ key: "service.name", value: { stringValue: "py-agent" } }] },
            scope_spans: [
              {
                scope: { name: "openinference.instrumentation.openai" },
                spans: [
                  {
                    trace_id: traceId,
                    span_id: "EEE19B7EC3C1B174",
                    parent_span_id: "",
                    name: "chat",
                    kind: "SPAN_KIND_CLIENT",
                    start_time_unix_nano: 1_700_000_000_000_000_000,
                    end_time_unix_nano: "1700000000500000000",
                    attributes: [
                      { key: "count", value: { int_value: "9007199254740993" } },
                      { key: "small", value: { intValue: 42 } },
                      { key: "ratio", value: { doubleValue: 0.5 } },
                      { key: "ok", value: { boolValue: true } },
                      { key: "raw", value: { bytesValue: "AAEC" } },
                      {
                        key: "gen_ai.input.messages",
                        value: {
                          arrayValue: {
                            values: [
                              {
                                kvlistValue: {
                                  values: [
                                    { key: "role", value: { stringValue: "user" } },
                                    { key: "parts", value: { arrayValue: { values: [] } } },
                                  ],
                                },
                              },
                            ],
                          },
                        },
                      },
                    ],
                    status: { code: "STATUS_CODE_ERROR", message: "boom" },
                  },
                ],
              },
            ],
          },
        ],
      }),
      "json",
    );
    expect(decoded.spans).toHaveLength(1);
    const span = decoded.spans[0]!;
    expect(span).toMatchObject({
      traceId: traceId.toLowerCase(),
      spanId: "eee19b7ec3c1b174",
      parentSpanId: null,
      kind: 3,
      startTimeUnixNano: "1700000000000000000",
      endTimeUnixNano: "1700000000500000000",
      serviceName: "py-agent",
      scope: "openinference.instrumentation.openai",
      status: { code: 2, message: "boom" },
    });
    expect(span.attributes).toEqual({
      count: "9007199254740993",
      small: 42,
      ratio: 0.5,
      ok: true,
      raw: "AAEC",
      "gen_ai.input.messages": [{ role: "user", parts: [] }],
    });
  });

  it("skips and counts spans with an invalid trace or span id, keeping the others", () => {
    const spanOf = (name: string, trace: string, spanId: string) => ({
      traceId: trace,
      spanId,
      name,
      startTimeUnixNano: "1",
      endTimeUnixNano: "2",
    });
    const decoded = decodeTraceRequest(
      body({
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  spanOf("good", traceId, "eee19b7ec3c1b174"),
                  spanOf("zero trace", "0".repeat(32), "eee19b7ec3c1b174"),
                  spanOf("short span", traceId, "eee19b7e"),
                  spanOf("not hex", traceId, "zzz19b7ec3c1b174"),
                  spanOf("zero span", traceId, "0000000000000000"),
                ],
              },
            ],
          },
        ],
      }),
      "json",
    );
    expect(decoded.spans.map((span) => span.name)).toEqual(["good"]);
    expect(decoded.rejectedSpans).toBe(4);
    expect(decoded.rejectedReasons).toEqual([
      "resourceSpans[0].scopeSpans[0].spans[1] (zero trace): resourceSpans[0].scopeSpans[0].spans[1].traceId is all zeros",
      "resourceSpans[0].scopeSpans[0].spans[2] (short span): resourceSpans[0].scopeSpans[0].spans[2].spanId must be 16 hex digits (8 bytes), got 8",
      "resourceSpans[0].scopeSpans[0].spans[3] (not hex): resourceSpans[0].scopeSpans[0].spans[3].spanId is not hexadecimal",
      "resourceSpans[0].scopeSpans[0].spans[4] (zero span): resourceSpans[0].scopeSpans[0].spans[4].spanId is all zeros",
    ]);
  });

  it("answers 400 naming the field for a body that is not an ExportTraceServiceRequest", () => {
    const cases: [string, string][] = [
      ["{", "body: not valid JSON"],
      ["[1]", "body: must be a JSON object"],
      ['{"resourceSpans": {}}', "resourceSpans: must be an array"],
      ['{"resourceSpans": [{"scopeSpans": [{"spans": [7]}]}]}', "resourceSpans[0].scopeSpans[0].spans[0]: must be an object"],
      [
        '{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174", "startTimeUnixNano": "soon"}]}]}]}',
        "resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano: must be an unsigned 64-bit integer",
      ],
      [
        '{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174", "attributes": [{"key": "n", "value": {"intValue": "1.5"}}]}]}]}]}',
        'resourceSpans[0].scopeSpans[0].spans[0].attributes["n"].intValue: must be an integer',
      ],
    ];
    for (const [text, message] of cases) {
      const error = decodeError(() => decodeTraceRequest(new TextEncoder().encode(text), "json"));
      expect(error.status).toBe(400);
      expect(error.message).toContain(message);
    }
  });
});

describe("decodeTraceRequest: protobuf errors and limits", () => {
  it("answers 400 for bytes that are not a protobuf ExportTraceServiceRequest", async () => {
    const { request } = await captured(() => emitThreeTurnConversation({ url: capture.url, encoding: "protobuf" }));
    const truncated = request.body.slice(0, request.body.length - 7);
    const error = decodeError(() => decodeTraceRequest(truncated, "protobuf"));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^body: not a valid protobuf ExportTraceServiceRequest/);
    // JSON sent as protobuf is not a request either.
    expect(decodeError(() => decodeTraceRequest(new TextEncoder().encode('{"resourceSpans":[]}'), "protobuf")).status).toBe(400);
  });

  it("skips protobuf spans whose ids are all zeros and counts them", async () => {
    const { request } = await captured(() => emitThreeTurnConversation({ url: capture.url, encoding: "protobuf" }));
    const message = ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(request.body)) as {
      resourceSpans: { scopeSpans: { spans: { traceId: Uint8Array; spanId: Uint8Array }[] }[] }[];
    };
    const spans = message.resourceSpans[0]!.scopeSpans[0]!.spans;
    spans[0]!.traceId = new Uint8Array(16);
    spans[2]!.spanId = new Uint8Array(4);
    const body = ExportTraceServiceRequest.encode(ExportTraceServiceRequest.fromObject(message)).finish();
    const decoded = decodeTraceRequest(body, "protobuf");
    expect(decoded.spans).toHaveLength(6);
    expect(decoded.rejectedSpans).toBe(2);
    expect(decoded.rejectedReasons[0]).toMatch(/^resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\] \(chat gpt-4o\): .*traceId is all zeros$/);
    expect(decoded.rejectedReasons[1]).toMatch(/spans\[2\]\.spanId must be 16 hex digits \(8 bytes\), got 8$/);
  });

  it.each(["protobuf", "json"] as const)("answers 413 for more spans than allowed (%s)", async (encoding) => {
    const { request } = await captured(() => emitThreeTurnConversation({ url: capture.url, encoding }));
    expect(decodeTraceRequest(request.body, encoding, { maxSpans: 8 }).spans).toHaveLength(8);
    const error = decodeError(() => decodeTraceRequest(request.body, encoding, { maxSpans: 7 }));
    expect(error.status).toBe(413);
    expect(error.message).toBe("resourceSpans: 8 spans, more than the 7 allowed per request");
    expect(DEFAULT_OTLP_LIMITS.maxSpans).toBe(5_000);
  });

  it.each(["protobuf", "json"] as const)("answers 400 naming the attribute longer than 256 KiB (%s)", async (encoding) => {
    const limit = DEFAULT_OTLP_LIMITS.maxAttributeLength;
    expect(limit).toBe(262_144);
    const before = capture.requests.length;
    await exportSpans({ url: capture.url, encoding }, "big-agent", (tracer) => {
      const time = { start: Date.now() - 1_000, end: Date.now() };
      timedSpan(tracer, "small", time, { "gen_ai.input.messages": "x".repeat(limit) }, null).end(new Date(time.end));
      timedSpan(tracer, "big", time, { "gen_ai.operation.name": "chat", "gen_ai.input.messages": "x".repeat(limit + 1) }, null).end(
        new Date(time.end),
      );
    });
    const body = capture.requests[before]!.body;
    const error = decodeError(() => decodeTraceRequest(body, encoding));
    expect(error.status).toBe(400);
    expect(error.message).toBe(
      `resourceSpans[0].scopeSpans[0].spans[1].attributes["gen_ai.input.messages"]: longer than 262144 characters`,
    );
    expect(decodeTraceRequest(body, encoding, { maxAttributeLength: limit + 1 }).spans).toHaveLength(2);
  });
});

describe("encodeTraceResponse", () => {
  it("writes partial_success in both encodings, and nothing when every span was accepted", () => {
    const partial = { rejectedSpans: 3, errorMessage: "3 spans with invalid ids" };
    const decoded = ExportTraceServiceResponse.toObject(
      ExportTraceServiceResponse.decode(encodeTraceResponse(partial, "protobuf") as Uint8Array),
      { longs: Number },
    );
    expect(decoded).toEqual({ partialSuccess: partial });
    expect(JSON.parse(encodeTraceResponse(partial, "json") as string)).toEqual({
      partialSuccess: { rejectedSpans: "3", errorMessage: "3 spans with invalid ids" },
    });
    expect((encodeTraceResponse(null, "protobuf") as Uint8Array).length).toBe(0);
    expect(encodeTraceResponse({ rejectedSpans: 0, errorMessage: "" }, "json")).toBe("{}");
  });
});
