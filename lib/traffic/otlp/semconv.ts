/**
 * Reads what a span says about an AI conversation, from the two conventions agents emit:
 * - OpenTelemetry GenAI semantic conventions: `gen_ai.operation.name`, `gen_ai.conversation.id`,
 *   models, usage, messages in `gen_ai.input.messages` / `gen_ai.output.messages` /
 *   `gen_ai.system_instructions` (JSON string or structured attribute) or in the older
 *   per-message events (`gen_ai.user.message`, `gen_ai.choice`, …), and `execute_tool` spans;
 * - OpenInference (Phoenix and many framework instrumentations): `openinference.span.kind`,
 *   `session.id`, flattened `llm.input_messages.N.message.*` attributes and `tool.*` spans.
 * Everything here is a pure function of one span; lib/traffic/assemble.ts puts spans together.
 */
import type { TranscriptMessage } from "@/lib/conversation/types";
import type { AttributeValue, Attributes, ReceivedSpan } from "@/lib/traffic/types";

/** What a span is in a conversation: a turn of the agent, a model call, a tool execution, or context. */
export type SpanRole = "agent" | "llm" | "tool" | "other";

const LLM_OPERATIONS = new Set(["chat", "text_completion", "generate_content"]);

export function spanRoleOf(span: ReceivedSpan): SpanRole {
  const operation = text(span.attributes["gen_ai.operation.name"]);
  if (operation !== null) {
    if (LLM_OPERATIONS.has(operation)) return "llm";
    if (operation === "invoke_agent") return "agent";
    if (operation === "execute_tool") return "tool";
    return "other";
  }
  const kind = text(span.attributes["openinference.span.kind"])?.toUpperCase();
  if (kind === "LLM") return "llm";
  if (kind === "AGENT") return "agent";
  if (kind === "TOOL") return "tool";
  if (kind !== undefined) return "other";
  // Spans without either marker still count as model calls when they carry messages.
  const keys = Object.keys(span.attributes);
  if (keys.some((key) => key === "gen_ai.input.messages" || key.startsWith("llm.input_messages."))) return "llm";
  if (span.events.some((event) => event.name === "gen_ai.choice")) return "llm";
  return "other";
}

/** The conversation a span belongs to (`gen_ai.conversation.id`, else OpenInference `session.id`). */
export function conversationIdOf(span: ReceivedSpan): string | null {
  for (const key of ["gen_ai.conversation.id", "session.id"]) {
    const value = span.attributes[key];
    if ((typeof value === "string" && value !== "") || typeof value === "number") return String(value);
  }
  return null;
}

export function modelOf(span: ReceivedSpan): string | null {
  const attributes = span.attributes;
  return text(attributes["gen_ai.response.model"]) ?? text(attributes["gen_ai.request.model"]) ?? text(attributes["llm.model_name"]);
}

export type Usage = { inputTokens: number; outputTokens: number };

/** Token usage, or null when the span reports none. */
export function usageOf(span: ReceivedSpan): Usage | null {
  const attributes = span.attributes;
  const input = firstNumber(attributes, ["gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens", "llm.token_count.prompt"]);
  const output = firstNumber(attributes, ["gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens", "llm.token_count.completion"]);
  if (input === null && output === null) return null;
  return { inputTokens: input ?? 0, outputTokens: output ?? 0 };
}

/** The messages a span sent to the model (or the agent received) and what came back. */
export type SpanMessages = { input: TranscriptMessage[]; output: TranscriptMessage[] };

export function messagesOf(span: ReceivedSpan): SpanMessages {
  const fromAttributes = genAiAttributeMessages(span.attributes);
  if (fromAttributes) return fromAttributes;
  const fromOpenInference = openInferenceMessages(span.attributes);
  if (fromOpenInference) return fromOpenInference;
  return eventMessages(span);
}

/** A tool execution as its span reports it. */
export type ToolSpan = {
  callId: string | null;
  name: string;
  /** The arguments as sent (a JSON string when they were structured). */
  arguments: string | null;
  result: string | null;
  error: string | null;
};

export function toolSpanOf(span: ReceivedSpan): ToolSpan | null {
  if (spanRoleOf(span) !== "tool") return null;
  const attributes = span.attributes;
  const name = text(attributes["gen_ai.tool.name"]) ?? text(attributes["tool.name"]) ?? span.name;
  return {
    callId: text(attributes["gen_ai.tool.call.id"]) ?? text(attributes["tool_call.id"]) ?? text(attributes["tool.id"]),
    name,
    arguments: jsonText(attributes["gen_ai.tool.call.arguments"] ?? attributes["input.value"] ?? attributes["tool.parameters"]),
    result: jsonText(attributes["gen_ai.tool.call.result"] ?? attributes["output.value"]),
    error: errorOf(span),
  };
}

/** Why the span failed, or null when it did not (status ERROR, or an `error.type` attribute). */
export function errorOf(span: ReceivedSpan): string | null {
  const errorType = text(span.attributes["error.type"]);
  if (span.status.code !== 2 && errorType === null) return null;
  const exception = span.events.find((event) => event.name === "exception");
  const exceptionMessage = exception ? text(exception.attributes["exception.message"]) : null;
  return span.status.message || exceptionMessage || errorType || "error";
}

/* ---------- GenAI `gen_ai.*.messages` attributes (semantic conventions 1.37+) ---------- */

function genAiAttributeMessages(attributes: Attributes): SpanMessages | null {
  const input = structured(attributes["gen_ai.input.messages"]);
  const output = structured(attributes["gen_ai.output.messages"]);
  const system = structured(attributes["gen_ai.system_instructions"]);
  if (input === undefined && output === undefined && system === undefined) return null;
  const systemMessages: TranscriptMessage[] = [];
  if (Array.isArray(system) && system.length > 0) {
    const content = textOfParts(system);
    if (content !== null) systemMessages.push({ role: "system", content });
  }
  return { input: [...systemMessages, ...messageList(input)], output: messageList(output) };
}

/** A list of GenAI messages (`{role, parts}`), or of OpenAI-style messages (`{role, content, tool_calls}`). */
function messageList(value: unknown): TranscriptMessage[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((message) => (isRecord(message) ? toTranscript(message) : []));
}

function toTranscript(message: Record<string, unknown>): TranscriptMessage[] {
  const role = normalizeRole(message.role);
  if (role === null) return [];
  if (Array.isArray(message.parts)) return fromParts(role, message.parts, text(message.name));
  return [fromOpenAiStyle(role, message)];
}

function fromParts(role: TranscriptMessage["role"], parts: unknown[], name: string | null): TranscriptMessage[] {
  const records = parts.filter(isRecord);
  const responses = records.filter((part) => part.type === "tool_call_response");
  if (role === "tool" || (responses.length > 0 && records.every((part) => part.type === "tool_call_response"))) {
    return responses.map((part) => ({
      role: "tool",
      tool_call_id: text(part.id) ?? "",
      content: jsonText(part.response as AttributeValue),
    }));
  }
  const toolCalls = records
    .filter((part) => part.type === "tool_call")
    .map((part) => ({
      id: text(part.id) ?? "",
      name: text(part.name) ?? "",
      arguments: jsonText(part.arguments as AttributeValue) ?? "{}",
    }));
  const message: TranscriptMessage = { role, content: textOfParts(records) };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (name !== null && role !== "assistant") message.name = name;
  return [message];
}

function textOfParts(parts: unknown[]): string | null {
  const texts = parts.filter(isRecord).flatMap((part) => {
    if (part.type !== undefined && part.type !== "text") return [];
    const content = part.content ?? part.text;
    return typeof content === "string" ? [content] : [];
  });
  return texts.length > 0 ? texts.join("\n") : null;
}

/** `{role, content, tool_calls: [{id, function: {name, arguments}}], tool_call_id}` (older events, OpenAI shape). */
function fromOpenAiStyle(role: TranscriptMessage["role"], message: Record<string, unknown>): TranscriptMessage {
  const content = message.content === undefined || message.content === null ? null : contentText(message.content);
  const result: TranscriptMessage = { role, content };
  const toolCalls = toolCallsOf(message.tool_calls);
  if (toolCalls.length > 0) result.tool_calls = toolCalls;
  const callId = text(message.tool_call_id) ?? (role === "tool" ? text(message.id) : null);
  if (role === "tool") result.tool_call_id = callId ?? "";
  return result;
}

function contentText(content: unknown): string | null {
  if (typeof content === "string") return content;
  // OpenAI content parts: [{type: "text", text}].
  if (Array.isArray(content)) {
    const texts = content.filter(isRecord).flatMap((part) => (typeof part.text === "string" ? [part.text] : []));
    if (texts.length > 0) return texts.join("\n");
  }
  return jsonText(content as AttributeValue);
}

function toolCallsOf(value: unknown): { id: string; name: string; arguments: string }[] {
  const calls = structured(value as AttributeValue);
  if (!Array.isArray(calls)) return [];
  return calls.filter(isRecord).map((call) => {
    const fn = isRecord(call.function) ? call.function : call;
    return { id: text(call.id) ?? "", name: text(fn.name) ?? "", arguments: jsonText(fn.arguments as AttributeValue) ?? "{}" };
  });
}

/* ---------- Older GenAI per-message events ---------- */

const EVENT_ROLES: Record<string, TranscriptMessage["role"]> = {
  "gen_ai.system.message": "system",
  "gen_ai.user.message": "user",
  "gen_ai.assistant.message": "assistant",
  "gen_ai.tool.message": "tool",
};

function eventMessages(span: ReceivedSpan): SpanMessages {
  const input: TranscriptMessage[] = [];
  const output: TranscriptMessage[] = [];
  for (const event of span.events) {
    const role = EVENT_ROLES[event.name];
    if (role) {
      input.push(fromOpenAiStyle(text(event.attributes.role) ? (normalizeRole(event.attributes.role) ?? role) : role, event.attributes));
    } else if (event.name === "gen_ai.choice") {
      const message = structured(event.attributes.message);
      const fields = isRecord(message) ? message : event.attributes;
      output.push(fromOpenAiStyle(normalizeRole(fields.role) ?? "assistant", fields));
    }
  }
  return { input, output };
}

/* ---------- OpenInference flattened attributes ---------- */

function openInferenceMessages(attributes: Attributes): SpanMessages | null {
  const input = flattenedMessages(attributes, "llm.input_messages.");
  const output = flattenedMessages(attributes, "llm.output_messages.");
  if (input.length === 0 && output.length === 0) return null;
  return { input, output };
}

type FlatMessage = {
  role?: string;
  content?: string;
  contents: Map<number, string>;
  toolCallId?: string;
  name?: string;
  toolCalls: Map<number, { id?: string; name?: string; arguments?: string }>;
};

/** `llm.input_messages.0.message.role`, `….message.tool_calls.1.tool_call.function.name`, … into messages in index order. */
function flattenedMessages(attributes: Attributes, prefix: string): TranscriptMessage[] {
  const messages = new Map<number, FlatMessage>();
  for (const [key, value] of Object.entries(attributes)) {
    if (!key.startsWith(prefix)) continue;
    const match = /^(\d+)\.message\.(.+)$/.exec(key.slice(prefix.length));
    if (!match) continue;
    const index = Number(match[1]);
    const message = messages.get(index) ?? { contents: new Map(), toolCalls: new Map() };
    messages.set(index, message);
    readFlatField(message, match[2] ?? "", value);
  }
  return [...messages.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([, flat]) => {
      const role = normalizeRole(flat.role);
      if (role === null) return [];
      const parts = [...flat.contents.entries()].sort(([a], [b]) => a - b).map(([, part]) => part);
      const content = flat.content ?? (parts.length > 0 ? parts.join("\n") : null);
      const message: TranscriptMessage = { role, content };
      const calls = [...flat.toolCalls.entries()].sort(([a], [b]) => a - b);
      if (calls.length > 0) {
        message.tool_calls = calls.map(([, call]) => ({ id: call.id ?? "", name: call.name ?? "", arguments: call.arguments ?? "{}" }));
      }
      if (role === "tool") message.tool_call_id = flat.toolCallId ?? "";
      if (flat.name !== undefined && role !== "assistant" && role !== "tool") message.name = flat.name;
      return [message];
    });
}

function readFlatField(message: FlatMessage, field: string, value: AttributeValue): void {
  const valueText = jsonText(value);
  if (valueText === null) return;
  if (field === "role") message.role = valueText;
  else if (field === "content") message.content = valueText;
  else if (field === "tool_call_id") message.toolCallId = valueText;
  else if (field === "name") message.name = valueText;
  const part = /^contents\.(\d+)\.message_content\.text$/.exec(field);
  if (part) message.contents.set(Number(part[1]), valueText);
  const call = /^tool_calls\.(\d+)\.tool_call\.(id|function\.name|function\.arguments)$/.exec(field);
  if (call) {
    const index = Number(call[1]);
    const entry = message.toolCalls.get(index) ?? {};
    if (call[2] === "id") entry.id = valueText;
    else if (call[2] === "function.name") entry.name = valueText;
    else entry.arguments = valueText;
    message.toolCalls.set(index, entry);
  }
}

/* ---------- Small readers ---------- */

function normalizeRole(value: unknown): TranscriptMessage["role"] | null {
  const role = typeof value === "string" ? value.toLowerCase() : null;
  if (role === "system" || role === "developer") return "system";
  if (role === "user" || role === "human") return "user";
  if (role === "assistant" || role === "model" || role === "ai") return "assistant";
  if (role === "tool" || role === "function") return "tool";
  return null;
}

function text(value: unknown): string | null {
  if (typeof value === "string") return value === "" ? null : value;
  if (typeof value === "number") return String(value);
  return null;
}

function firstNumber(attributes: Attributes, keys: string[]): number | null {
  for (const key of keys) {
    const value = attributes[key];
    if (typeof value === "number" && Number.isFinite(value)) return value;
    if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  }
  return null;
}

/** A JSON-string attribute parsed, a structured one as is; undefined when absent. */
function structured(value: AttributeValue | undefined): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** A value as text: strings as they are, anything else as JSON. */
function jsonText(value: AttributeValue | undefined): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? value : JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
