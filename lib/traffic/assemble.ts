/**
 * Assembles the spans of one conversation into the transcript and figures a case is made from.
 *
 * Spans arrive late, out of order and spread over several traces (often one per user turn), and
 * every model call re-sends the history, so the transcript is rebuilt on a timeline: each
 * message-carrying span (model call or agent turn) contributes its input at its start and its
 * output at its end, and each contribution only appends what the transcript does not already end
 * with. The result depends only on the set of spans, never on the order they were received in.
 */
import type { TranscriptMessage } from "@/lib/conversation/types";
import type { AssembledConversation, ObservedToolCall, ReceivedSpan } from "@/lib/traffic/types";
import { conversationIdOf, errorOf, messagesOf, modelOf, spanRoleOf, toolSpanOf, usageOf, type SpanRole } from "@/lib/traffic/otlp/semconv";

type Span = ReceivedSpan & { role: SpanRole; start: bigint; end: bigint };

/** A transcript message with the time (ns) of the contribution that added it. */
type Placed = { message: TranscriptMessage; at: bigint };

export function assembleConversation(received: ReceivedSpan[]): AssembledConversation {
  if (received.length === 0) throw new Error("assembleConversation: a conversation needs at least one span");
  const spans = sortSpans(received);
  const llmSpans = outermost(spans, "llm");
  const agentSpans = outermost(spans, "agent");

  const placed = buildTranscript(spans);
  const toolCalls = matchToolSpans(placed, spans);
  const messages = placed.map((entry) => entry.message);
  const userMessages = messages.filter((message) => message.role === "user");

  const tokens = sumUsage(llmSpans) ?? sumUsage(agentSpans) ?? { inputTokens: 0, outputTokens: 0 };
  const errors = spans.flatMap((span) => {
    const error = errorOf(span);
    return error === null ? [] : [`${span.name}: ${error}`];
  });
  const model = [...spans].reverse().find((span) => span.role === "llm" && modelOf(span) !== null);

  return {
    messages,
    toolCalls,
    toolNames: [...new Set(toolCalls.map((call) => call.name))],
    userTurns: userMessages.length,
    userText: userMessages.map((message) => message.content ?? "").join("\n"),
    model: model ? modelOf(model) : null,
    inputTokens: tokens.inputTokens,
    outputTokens: tokens.outputTokens,
    latencyMs: Math.round(sumDurationsMs(agentSpans.length > 0 ? agentSpans : llmSpans)),
    startedAt: nanosToDate(spans.reduce((min, span) => (span.start < min ? span.start : min), spans[0]!.start)),
    endedAt: nanosToDate(spans.reduce((max, span) => (span.end > max ? span.end : max), spans[0]!.end)),
    hasError: errors.length > 0,
    errors,
    serviceName: mostCommon(spans.map((span) => span.serviceName)),
    llmCalls: llmSpans.length,
  };
}

/** The spans of one conversation, as `groupByConversation` finds them. */
export type ConversationGroup = {
  /** The conversation id, else `trace:<trace id>`. */
  key: string;
  conversationId: string | null;
  traceIds: string[];
  spans: ReceivedSpan[];
};

/**
 * Splits spans into conversations: by conversation id, else by trace. A span without the id (a tool
 * or HTTP span an instrumentation did not tag) joins the conversation of the other spans of its trace.
 */
export function groupByConversation(spans: ReceivedSpan[]): ConversationGroup[] {
  const traceConversation = new Map<string, string>();
  for (const span of spans) {
    const id = conversationIdOf(span);
    if (id !== null && !traceConversation.has(span.traceId)) traceConversation.set(span.traceId, id);
  }
  const groups = new Map<string, ConversationGroup>();
  for (const span of spans) {
    const conversationId = conversationIdOf(span) ?? traceConversation.get(span.traceId) ?? null;
    const key = conversationId ?? `trace:${span.traceId}`;
    const group = groups.get(key) ?? { key, conversationId, traceIds: [], spans: [] };
    groups.set(key, group);
    if (!group.traceIds.includes(span.traceId)) group.traceIds.push(span.traceId);
    group.spans.push(span);
  }
  return [...groups.values()];
}

/** By start time, then end, then ids: a total order, so the input order never matters. */
function sortSpans(received: ReceivedSpan[]): Span[] {
  const spans = received.map((span) => ({
    ...span,
    role: spanRoleOf(span),
    start: BigInt(span.startTimeUnixNano),
    end: BigInt(span.endTimeUnixNano),
  }));
  return spans.sort(
    (a, b) =>
      compareBig(a.start, b.start) || compareBig(a.end, b.end) || a.traceId.localeCompare(b.traceId) || a.spanId.localeCompare(b.spanId),
  );
}

function compareBig(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Spans of a role not nested in another span of the same role: instrumentations stack (a framework's
 * LLM span around the client library's), and counting both would double tokens and latency.
 */
function outermost(spans: Span[], role: SpanRole): Span[] {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  return spans.filter((span) => {
    if (span.role !== role) return false;
    const seen = new Set<string>();
    for (let parent = span.parentSpanId; parent !== null && !seen.has(parent);) {
      seen.add(parent);
      const ancestor = byId.get(parent);
      if (!ancestor) break;
      if (ancestor.role === role) return false;
      parent = ancestor.parentSpanId;
    }
    return true;
  });
}

/* ---------- Transcript ---------- */

type Contribution = { at: bigint; order: number; messages: TranscriptMessage[] };

function buildTranscript(spans: Span[]): Placed[] {
  const contributions: Contribution[] = [];
  for (const span of spans) {
    if (span.role !== "llm" && span.role !== "agent") continue;
    const { input, output } = messagesOf(span);
    // At equal times inputs come before outputs, and an agent turn's input before its model calls'.
    if (input.length > 0) contributions.push({ at: span.start, order: span.role === "agent" ? 0 : 1, messages: input });
    if (output.length > 0) contributions.push({ at: span.end, order: span.role === "agent" ? 3 : 2, messages: output });
  }
  contributions.sort((a, b) => compareBig(a.at, b.at) || a.order - b.order);
  const placed: Placed[] = [];
  for (const contribution of contributions) merge(placed, contribution);
  return placed;
}

/**
 * Appends what `contribution` adds to the transcript: system prompts already present are dropped,
 * then the longest head of the contribution that the transcript already ends with is skipped
 * (a model call re-sending the history, a sliding window of it, or an agent repeating its model's answer).
 */
function merge(placed: Placed[], contribution: Contribution): void {
  const keys = placed.map((entry) => messageKey(entry.message));
  const systemKeys = new Set(placed.filter((entry) => entry.message.role === "system").map((entry) => messageKey(entry.message)));
  const incoming = contribution.messages.filter((message) => message.role !== "system" || !systemKeys.has(messageKey(message)));
  const incomingKeys = incoming.map(messageKey);
  let overlap = Math.min(keys.length, incomingKeys.length);
  for (; overlap > 0; overlap--) {
    const tail = keys.slice(keys.length - overlap);
    if (tail.every((key, i) => key === incomingKeys[i])) break;
  }
  for (const message of incoming.slice(overlap)) placed.push({ message, at: contribution.at });
}

/** What makes two messages the same message: role, text, tool calls (arguments compared as JSON). */
function messageKey(message: TranscriptMessage): string {
  return JSON.stringify([
    message.role,
    (message.content ?? "").trim(),
    (message.tool_calls ?? []).map((call) => [call.name, normalizeJson(call.arguments)]),
    message.tool_call_id ?? "",
  ]);
}

function normalizeJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text.trim();
  }
}

/* ---------- Tool calls ---------- */

/**
 * The tool calls of the transcript's assistant messages, completed with the tool spans' results,
 * errors and durations (matched by call id, else by name in order). A tool span no message
 * mentions still becomes a tool call, and a call + result pair in the transcript at its time.
 */
function matchToolSpans(placed: Placed[], spans: Span[]): ObservedToolCall[] {
  const { calls, sources } = callsFromMessages(placed);
  const matched = new Set<ObservedToolCall>();
  // A span whose call id no message has (a framework's own ids) is matched by name instead.
  const knownIds = new Set(calls.map((call) => call.id).filter((id) => id !== ""));
  for (const span of spans) {
    const tool = toolSpanOf(span);
    if (!tool) continue;
    const call =
      (tool.callId !== null ? calls.find((entry) => entry.id === tool.callId && !matched.has(entry)) : undefined) ??
      calls.find((entry) => entry.name === tool.name && !matched.has(entry) && (tool.callId === null || !knownIds.has(tool.callId)));
    const durationMs = Number(span.end - span.start) / 1e6;
    if (call) {
      matched.add(call);
      call.durationMs = durationMs;
      call.error = tool.error;
      if (call.result === null && tool.result !== null) {
        call.result = tool.result;
        insertToolResult(placed, call, sources.get(call)!);
      }
      continue;
    }
    const id = tool.callId ?? `span_${span.spanId}`;
    const added: ObservedToolCall = {
      id,
      name: tool.name,
      arguments: parseArguments(tool.arguments ?? "{}"),
      result: tool.result,
      error: tool.error,
      durationMs,
    };
    matched.add(added);
    calls.push(added);
    insertCallPair(placed, span, added, tool.arguments ?? "{}");
  }
  return calls.sort((a, b) => callPosition(placed, a) - callPosition(placed, b));
}

/** The tool calls of the assistant messages, each with the message that made it. */
function callsFromMessages(placed: Placed[]): { calls: ObservedToolCall[]; sources: Map<ObservedToolCall, TranscriptMessage> } {
  const results = new Map<string, string | null>();
  for (const { message } of placed) {
    if (message.role === "tool" && message.tool_call_id) results.set(message.tool_call_id, message.content);
  }
  const sources = new Map<ObservedToolCall, TranscriptMessage>();
  const calls = placed.flatMap(({ message }) =>
    (message.tool_calls ?? []).map((call) => {
      const observed: ObservedToolCall = {
        id: call.id,
        name: call.name,
        arguments: parseArguments(call.arguments),
        result: call.id !== "" ? (results.get(call.id) ?? null) : null,
        error: null,
        durationMs: null,
      };
      sources.set(observed, message);
      return observed;
    }),
  );
  return { calls, sources };
}

function parseArguments(text: string): Record<string, unknown> | string {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : text;
  } catch {
    return text;
  }
}

/** A result only a tool span carried goes right after the assistant message that made the call (and its other results). */
function insertToolResult(placed: Placed[], call: ObservedToolCall, source: TranscriptMessage): void {
  const at = placed.findIndex((entry) => entry.message === source);
  if (at < 0) return;
  let index = at + 1;
  while (index < placed.length && placed[index]!.message.role === "tool") index++;
  placed.splice(index, 0, { message: { role: "tool", tool_call_id: call.id, content: call.result }, at: placed[at]!.at });
}

/** An unmentioned tool execution, shown where it happened: before the first message added after it ended. */
function insertCallPair(placed: Placed[], span: Span, call: ObservedToolCall, args: string): void {
  const found = placed.findIndex((entry) => entry.at > span.end);
  const index = found < 0 ? placed.length : found;
  placed.splice(
    index,
    0,
    { message: { role: "assistant", content: null, tool_calls: [{ id: call.id, name: call.name, arguments: args }] }, at: span.start },
    {
      message: { role: "tool", tool_call_id: call.id, content: call.result ?? (call.error !== null ? `Error: ${call.error}` : null) },
      at: span.end,
    },
  );
}

function callPosition(placed: Placed[], call: ObservedToolCall): number {
  const index = placed.findIndex((entry) =>
    entry.message.tool_calls?.some((candidate) => candidate.id === call.id && candidate.name === call.name),
  );
  return index < 0 ? placed.length : index;
}

/* ---------- Figures ---------- */

function sumUsage(spans: Span[]): { inputTokens: number; outputTokens: number } | null {
  const usages = spans.map(usageOf).filter((usage) => usage !== null);
  if (usages.length === 0) return null;
  return usages.reduce((sum, usage) => ({
    inputTokens: sum.inputTokens + usage.inputTokens,
    outputTokens: sum.outputTokens + usage.outputTokens,
  }));
}

function sumDurationsMs(spans: Span[]): number {
  return spans.reduce((sum, span) => sum + Number(span.end - span.start) / 1e6, 0);
}

function nanosToDate(nanos: bigint): Date {
  return new Date(Number(nanos / 1_000_000n));
}

/** The most frequent non-null value; ties go to the one seen first. */
function mostCommon(values: (string | null)[]): string | null {
  const counts = new Map<string, number>();
  for (const value of values) if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: string | null = null;
  for (const [value, count] of counts) if (best === null || count > counts.get(best)!) best = value;
  return best;
}
