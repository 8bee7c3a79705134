/**
 * Hand-built OTLP/JSON requests for the API tests (the real SDK's bytes are in ./otel-fixtures.ts):
 * GenAI semantic-convention spans of one conversation turn, with exact times and ids, so a test
 * can send them in any order and split across requests.
 */
import { randomBytes } from "node:crypto";

type AttrValue = string | number | boolean;

export const hexId = (bytes: number) => randomBytes(bytes).toString("hex");

const attr = (key: string, v: AttrValue) => ({
  key,
  value:
    typeof v === "string"
      ? { stringValue: v }
      : typeof v === "boolean"
        ? { boolValue: v }
        : Number.isInteger(v)
          ? { intValue: String(v) }
          : { doubleValue: v },
});

export type JsonSpan = Record<string, unknown>;

export function span(o: {
  traceId: string;
  spanId?: string;
  parentSpanId?: string;
  name: string;
  startMs: number;
  endMs: number;
  attrs?: Record<string, AttrValue>;
  error?: string;
}): JsonSpan {
  return {
    traceId: o.traceId,
    spanId: o.spanId ?? hexId(8),
    ...(o.parentSpanId ? { parentSpanId: o.parentSpanId } : {}),
    name: o.name,
    kind: 1,
    startTimeUnixNano: String(BigInt(o.startMs) * 1_000_000n),
    endTimeUnixNano: String(BigInt(o.endMs) * 1_000_000n),
    attributes: Object.entries(o.attrs ?? {}).map(([k, v]) => attr(k, v)),
    status: o.error ? { code: 2, message: o.error } : { code: 0 },
  };
}

export function otlpRequest(service: string, spans: JsonSpan[]) {
  return {
    resourceSpans: [
      {
        resource: { attributes: [attr("service.name", service)] },
        scopeSpans: [{ scope: { name: "assay-tests" }, spans }],
      },
    ],
  };
}

type Msg = {
  role: "system" | "user" | "assistant" | "tool";
  text?: string;
  toolCall?: { id: string; name: string; args: object };
  toolResult?: { id: string; result: string };
};

const parts = (m: Msg) => [
  ...(m.text !== undefined ? [{ type: "text", content: m.text }] : []),
  ...(m.toolCall ? [{ type: "tool_call", id: m.toolCall.id, name: m.toolCall.name, arguments: m.toolCall.args }] : []),
  ...(m.toolResult ? [{ type: "tool_call_response", id: m.toolResult.id, response: m.toolResult.result }] : []),
];
const messagesJson = (list: Msg[]) => JSON.stringify(list.map((m) => ({ role: m.role, parts: parts(m) })));

/** One model call (a `chat` span): the history it was sent and what it answered, with usage. */
export function chatSpan(o: {
  traceId: string;
  parentSpanId?: string;
  conversationId?: string;
  startMs: number;
  endMs: number;
  input: Msg[];
  output: Msg;
  model?: string;
  tokens?: [number, number];
  error?: string;
}): JsonSpan {
  return span({
    traceId: o.traceId,
    parentSpanId: o.parentSpanId,
    name: `chat ${o.model ?? "gpt-test"}`,
    startMs: o.startMs,
    endMs: o.endMs,
    error: o.error,
    attrs: {
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": o.model ?? "gpt-test",
      ...(o.conversationId ? { "gen_ai.conversation.id": o.conversationId } : {}),
      "gen_ai.input.messages": messagesJson(o.input),
      "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: parts(o.output), finish_reason: "stop" }]),
      "gen_ai.usage.input_tokens": o.tokens?.[0] ?? 10,
      "gen_ai.usage.output_tokens": o.tokens?.[1] ?? 5,
    },
  });
}
