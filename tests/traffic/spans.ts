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

/** An agent's turn (an `invoke_agent` span) that names the conversation it belongs to. */
export function agentSpan(o: { traceId: string; name?: string; conversationId: string; startMs: number; endMs: number }): JsonSpan {
  return span({
    traceId: o.traceId,
    name: o.name ?? "invoke_agent",
    startMs: o.startMs,
    endMs: o.endMs,
    attrs: { "gen_ai.operation.name": "invoke_agent", "gen_ai.conversation.id": o.conversationId },
  });
}

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

/** A three-turn support conversation, one trace per user turn (an agent span with a chat span under it), the second turn calling a tool. */
/** `marker` (optional) is appended to the second user message, for fake-model rules keyed to one test. */
export function supportConversation(conversationId: string, t0: number, marker = "") {
  const turns = [
    { user: "Where is my order 1042?", answer: "Let me look that up.", tool: true },
    { user: `It was due Monday.${marker ? ` (${marker})` : ""}`, answer: "It ships tomorrow; sorry for the delay.", tool: false },
    { user: "Can I get a refund on shipping?", answer: "Yes, I refunded the shipping fee.", tool: false },
  ];
  const history: Parameters<typeof chatSpan>[0]["input"] = [{ role: "system", text: "You are the support agent." }];
  return turns.map((turn, i) => {
    const traceId = hexId(16);
    const start = t0 + i * 60_000;
    const agent = agentSpan({ traceId, name: "invoke_agent support", conversationId, startMs: start, endMs: start + 900 });
    history.push({ role: "user", text: turn.user });
    // A model call of this turn, sent the history so far.
    const modelCall = (from: number, to: number, output: Msg, tokens: [number, number]) =>
      chatSpan({
        traceId,
        parentSpanId: agent.spanId as string,
        startMs: start + from,
        endMs: start + to,
        input: [...history],
        output,
        tokens,
      });
    const spans = [agent];
    if (turn.tool) {
      const toolCall = { id: `call_${i}`, name: "lookup_order", args: { order_id: "1042" } };
      spans.push(
        modelCall(10, 300, { role: "assistant", toolCall }, [40, 8]),
        span({
          traceId,
          parentSpanId: agent.spanId as string,
          name: "execute_tool lookup_order",
          startMs: start + 310,
          endMs: start + 350,
          attrs: {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": "lookup_order",
            "gen_ai.tool.call.id": toolCall.id,
            "gen_ai.tool.call.arguments": JSON.stringify(toolCall.args),
            "gen_ai.tool.call.result": '{"status":"delayed","ships":"tomorrow"}',
          },
        }),
      );
      history.push(
        { role: "assistant", toolCall },
        { role: "tool", toolResult: { id: toolCall.id, result: '{"status":"delayed","ships":"tomorrow"}' } },
      );
    }
    spans.push(modelCall(400, 880, { role: "assistant", text: turn.answer }, [50 + i * 20, 12]));
    history.push({ role: "assistant", text: turn.answer });
    return spans;
  });
}
