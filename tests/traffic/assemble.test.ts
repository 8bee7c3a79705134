import { describe, expect, it } from "vitest";
import { assembleConversation, groupByConversation } from "@/lib/traffic/assemble";
import { decodeTraceRequest } from "@/lib/traffic/otlp/decode";
import { conversationIdOf } from "@/lib/traffic/otlp/semconv";
import type { AssembledConversation, ReceivedSpan } from "@/lib/traffic/types";
import {
  emitEventConversation,
  emitOpenInferenceConversation,
  emitThreeTurnConversation,
  withOtlpCapture,
  type OtlpTarget,
  type SentConversation,
} from "./otel-fixtures";

const capture = withOtlpCapture();

/** Emits with the real SDK and exporter, and decodes what reached the capture server. */
async function emitAndDecode(
  encoding: OtlpTarget["encoding"],
  emit: (target: OtlpTarget) => Promise<SentConversation>,
): Promise<{ sent: SentConversation; spans: ReceivedSpan[] }> {
  const before = capture.requests.length;
  const sent = await emit({ url: capture.url, encoding });
  const spans = capture.requests.slice(before).flatMap((request) => decodeTraceRequest(request.body, encoding).spans);
  return { sent, spans };
}

function expectAsSent(conversation: AssembledConversation, sent: SentConversation): void {
  expect(conversation.messages).toEqual(sent.messages);
  expect(conversation.toolCalls.map(({ durationMs: _, ...call }) => call)).toEqual(sent.toolCalls);
  expect(conversation.toolNames).toEqual([...new Set(sent.toolCalls.map((call) => call.name))]);
  expect(conversation.userTurns).toBe(sent.userTurns);
  expect(conversation.userText).toBe(
    sent.messages
      .filter((message) => message.role === "user")
      .map((message) => message.content)
      .join("\n"),
  );
  expect(conversation.model).toBe(sent.model);
  expect(conversation.inputTokens).toBe(sent.inputTokens);
  expect(conversation.outputTokens).toBe(sent.outputTokens);
  expect(conversation.latencyMs).toBe(sent.latencyMs);
  expect(conversation.startedAt).toEqual(sent.startedAt);
  expect(conversation.endedAt).toEqual(sent.endedAt);
  expect(conversation.hasError).toBe(sent.errors.length > 0);
  expect(conversation.errors).toEqual(sent.errors);
  expect(conversation.serviceName).toBe(sent.serviceName);
  expect(conversation.llmCalls).toBe(sent.llmCalls);
}

/** A deterministic shuffle (the test must not pass or fail by chance). */
function shuffled<T>(items: T[], seed: number): T[] {
  const result = [...items];
  let state = seed;
  for (let i = result.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = state % (i + 1);
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  return result;
}

describe("assembleConversation on spans sent by the real OpenTelemetry JS SDK", () => {
  it.each(["protobuf", "json"] as const)(
    "assembles a three-turn GenAI conversation over three traces with a tool call (%s)",
    async (encoding) => {
      const { sent, spans } = await emitAndDecode(encoding, (target) => emitThreeTurnConversation(target));
      expect(sent.traceIds).toHaveLength(3);
      const ofConversation = spans.filter((span) => conversationIdOf(span) === sent.conversationId);
      expect(ofConversation).toHaveLength(sent.spanCount);
      const conversation = assembleConversation(ofConversation);
      expectAsSent(conversation, sent);
      expect(conversation.toolCalls[0]!.durationMs).toBe(250);
    },
  );

  it("gives the same conversation whatever order the spans arrive in, and when late spans complete it", async () => {
    const { sent, spans } = await emitAndDecode("protobuf", (target) => emitThreeTurnConversation(target));
    const inOrder = assembleConversation(spans);
    expectAsSent(inOrder, sent);
    expect(assembleConversation([...spans].reverse())).toEqual(inOrder);
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) expect(assembleConversation(shuffled(spans, seed))).toEqual(inOrder);

    // The last turn arrives first and the first turn's model call only once the rest is stored.
    const byStart = [...spans].sort((a, b) => a.startTimeUnixNano.localeCompare(b.startTimeUnixNano));
    const lastTurnTrace = byStart.at(-1)!.traceId;
    const firstChat = [...spans]
      .filter((span) => span.name.startsWith("chat "))
      .sort((a, b) => a.startTimeUnixNano.localeCompare(b.startTimeUnixNano))[0]!;
    const early = spans.filter((span) => span !== firstChat && span.traceId === lastTurnTrace);
    const partial = assembleConversation(early);
    expect(partial.userTurns).toBe(3); // the last model call re-sends the whole history
    const late = [...spans.filter((span) => span !== firstChat && span.traceId !== lastTurnTrace), firstChat];
    expect(assembleConversation([...early, ...late])).toEqual(inOrder);
  });

  it.each(["protobuf", "json"] as const)("assembles an OpenInference conversation (%s)", async (encoding) => {
    const { sent, spans } = await emitAndDecode(encoding, (target) => emitOpenInferenceConversation(target));
    expect(spans.every((span) => conversationIdOf(span) === sent.conversationId)).toBe(true);
    const conversation = assembleConversation(spans);
    expectAsSent(conversation, sent);
    expect(conversation.toolCalls[0]!.durationMs).toBe(200);
  });

  it.each(["protobuf", "json"] as const)(
    "assembles the older event-shaped conversation, with a failed tool no message mentions (%s)",
    async (encoding) => {
      const { sent, spans } = await emitAndDecode(encoding, (target) => emitEventConversation(target));
      expect(spans.every((span) => conversationIdOf(span) === null)).toBe(true);
      const conversation = assembleConversation(spans);
      expectAsSent(conversation, sent);
      expect(conversation.toolCalls.map((call) => call.durationMs)).toEqual([300, 2_800]);
    },
  );
});

describe("groupByConversation", () => {
  it("groups by conversation id across traces, else by trace, with untagged spans joining their trace's conversation", async () => {
    const three = await emitAndDecode("json", (target) => emitThreeTurnConversation(target));
    const events = await emitAndDecode("json", (target) => emitEventConversation(target));
    // An instrumentation that tags only the model calls: the tool span has no conversation id.
    const untagged = three.spans.map((span) =>
      span.name.startsWith("execute_tool") ? { ...span, attributes: { ...span.attributes, "gen_ai.conversation.id": null } } : span,
    );
    expect(conversationIdOf(untagged.find((span) => span.name.startsWith("execute_tool"))!)).toBeNull();
    const groups = groupByConversation(shuffled([...untagged, ...events.spans], 3));
    expect(groups.map((group) => [group.key, group.spans.length]).sort()).toEqual(
      [
        [three.sent.conversationId, three.sent.spanCount],
        [`trace:${events.sent.traceIds[0]}`, events.sent.spanCount],
      ].sort(),
    );
    const conversation = groups.find((group) => group.conversationId === three.sent.conversationId)!;
    expect(new Set(conversation.traceIds)).toEqual(new Set(three.sent.traceIds));
    expectAsSent(assembleConversation(conversation.spans), three.sent);
  });
});

describe("assembleConversation rules", () => {
  let counter = 0;
  const base = 1_795_000_000_000n * 1_000_000n;
  function span(startMs: number, endMs: number, attributes: ReceivedSpan["attributes"], extra: Partial<ReceivedSpan> = {}): ReceivedSpan {
    counter++;
    return {
      traceId: "a".repeat(32),
      spanId: counter.toString(16).padStart(16, "0"),
      parentSpanId: null,
      name: `span ${counter}`,
      kind: 1,
      startTimeUnixNano: String(base + BigInt(startMs) * 1_000_000n),
      endTimeUnixNano: String(base + BigInt(endMs) * 1_000_000n),
      serviceName: "svc",
      status: { code: 0, message: null },
      attributes,
      resourceAttributes: {},
      events: [],
      scope: null,
      ...extra,
    };
  }
  const text = (role: string, content: string) => ({ role, parts: [{ type: "text", content }] });
  const chat = (input: unknown[], output: unknown[], extra: ReceivedSpan["attributes"] = {}) => ({
    "gen_ai.operation.name": "chat",
    "gen_ai.input.messages": JSON.stringify(input),
    "gen_ai.output.messages": JSON.stringify(output),
    ...extra,
  });

  const system = JSON.stringify([{ type: "text", content: "Be brief." }]);

  it("appends only the new tail of a sliding-window history, and appends input that matches nothing", () => {
    const conversation = assembleConversation([
      span(0, 10, chat([text("user", "one")], [text("assistant", "1")], { "gen_ai.system_instructions": system })),
      // A window of the last two messages plus the new one.
      span(20, 30, chat([text("assistant", "1"), text("user", "two")], [text("assistant", "2")])),
      // A fresh context: nothing matches what came before (the system prompt is not repeated).
      span(40, 50, chat([text("user", "three")], [text("assistant", "3")], { "gen_ai.system_instructions": system })),
    ]);
    expect(conversation.messages.map((message) => message.content)).toEqual(["Be brief.", "one", "1", "two", "2", "three", "3"]);
    expect(conversation.userTurns).toBe(3);
    expect(conversation.userText).toBe("one\ntwo\nthree");
  });

  it("counts nested agent spans once, takes agent tokens only when no model call has usage, and lists errors", () => {
    const outer = span(0, 1_000, {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.usage.input_tokens": 70,
      "gen_ai.usage.output_tokens": 7,
    });
    const inner = span(
      100,
      900,
      { "gen_ai.operation.name": "invoke_agent", "gen_ai.usage.input_tokens": 70 },
      { parentSpanId: outer.spanId },
    );
    const model = span(200, 800, chat([text("user", "hi")], [text("assistant", "hello")], { "gen_ai.request.model": "m1" }), {
      parentSpanId: inner.spanId,
      status: { code: 2, message: "rate limited" },
      name: "chat m1",
    });
    const typed = span(850, 860, { "error.type": "timeout" }, { name: "fetch" });
    const conversation = assembleConversation([typed, model, inner, outer]);
    expect(conversation.latencyMs).toBe(1_000);
    expect(conversation.inputTokens).toBe(70);
    expect(conversation.outputTokens).toBe(7);
    expect(conversation.model).toBe("m1");
    expect(conversation.llmCalls).toBe(1);
    expect(conversation.hasError).toBe(true);
    expect(conversation.errors).toEqual(["chat m1: rate limited", "fetch: timeout"]);
  });

  it("falls back to model-call latency without agent spans, and picks the most common service", () => {
    const conversation = assembleConversation([
      span(0, 400, chat([text("user", "a")], [text("assistant", "b")], { "gen_ai.usage.input_tokens": 5 }), { serviceName: "web" }),
      span(1_000, 1_250, chat([text("user", "a"), text("assistant", "b"), text("user", "c")], [text("assistant", "d")]), {
        serviceName: "api",
      }),
      span(1_300, 1_310, {}, { serviceName: "api" }),
    ]);
    expect(conversation.latencyMs).toBe(650);
    expect(conversation.inputTokens).toBe(5);
    expect(conversation.serviceName).toBe("api");
    expect(conversation.messages.map((message) => message.content)).toEqual(["a", "b", "c", "d"]);
  });

  it("completes a tool call by name when neither side has an id, and adds a result only the tool span carried", () => {
    const call = { role: "assistant", parts: [{ type: "tool_call", name: "search", arguments: { q: "x" } }] };
    const conversation = assembleConversation([
      span(0, 100, chat([text("user", "find x")], [call])),
      span(100, 180, { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search", "gen_ai.tool.call.result": "found" }),
      span(200, 300, {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "search",
        "gen_ai.tool.call.id": "c9",
        "gen_ai.tool.call.arguments": '{"q":"y"}',
      }),
    ]);
    expect(conversation.toolCalls).toEqual([
      { id: "", name: "search", arguments: { q: "x" }, result: "found", error: null, durationMs: 80 },
      { id: "c9", name: "search", arguments: { q: "y" }, result: null, error: null, durationMs: 100 },
    ]);
    expect(conversation.messages).toEqual([
      { role: "user", content: "find x" },
      { role: "assistant", content: null, tool_calls: [{ id: "", name: "search", arguments: '{"q":"x"}' }] },
      { role: "tool", tool_call_id: "", content: "found" },
      { role: "assistant", content: null, tool_calls: [{ id: "c9", name: "search", arguments: '{"q":"y"}' }] },
      { role: "tool", tool_call_id: "c9", content: null },
    ]);
    expect(() => assembleConversation([])).toThrow(/at least one span/);

    // The framework's own call id on the tool span, not the model's: matched by name.
    const byName = assembleConversation([
      span(
        0,
        100,
        chat(
          [text("user", "find x")],
          [{ role: "assistant", parts: [{ type: "tool_call", id: "call_m", name: "search", arguments: {} }] }],
        ),
      ),
      span(100, 150, {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "search",
        "gen_ai.tool.call.id": "run-42",
        "gen_ai.tool.call.result": "r",
      }),
    ]);
    expect(byName.toolCalls).toEqual([{ id: "call_m", name: "search", arguments: {}, result: "r", error: null, durationMs: 50 }]);
    expect(byName.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_m", content: "r" });
  });
});
