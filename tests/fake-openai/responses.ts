// Request inspection, rule matching and OpenAI-format response bodies for the fake server.
import { schemaInstance } from "./schema-instance";
import type { FakeEndpoint, FakeRule } from "./types";

type Json = Record<string, unknown>;
type Reply = NonNullable<FakeRule["reply"]>;

/** What rules match against: a flattened view of a chat or embeddings request. */
export type RequestView = {
  endpoint: FakeEndpoint;
  model: string;
  /** text of every message (chat) or every input (embeddings) */
  texts: string[];
  /** last user message (chat) or last input (embeddings) */
  lastUser: string;
  lastRole: string | undefined;
  tools: string[];
  responseFormat: Json | undefined;
  schemaName: string | undefined;
};

export const MODEL_IDS = ["gpt-4o-mini", "gpt-4o", "gpt-4.1-mini", "text-embedding-3-small", "text-embedding-3-large"];
export const EMBEDDING_DIMENSIONS = 64;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Plain text of a message `content` (string, or an array of content parts). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (typeof part === "string" ? part : isObject(part) && typeof part.text === "string" ? part.text : ""))
      .filter((s) => s.length > 0)
      .join("\n");
  }
  return "";
}

export function countWords(text: string): number {
  const m = text.match(/\S+/g);
  return m ? m.length : 0;
}

function toolName(tool: unknown): string | undefined {
  if (!isObject(tool)) return undefined;
  const fn = isObject(tool.function) ? tool.function : isObject(tool.custom) ? tool.custom : tool;
  return typeof fn.name === "string" ? fn.name : undefined;
}

export function chatView(body: Json): RequestView {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  const texts: string[] = [];
  let lastUser = "";
  for (const m of messages) {
    const text = contentText(m.content);
    texts.push(text);
    if (m.role === "user") lastUser = text;
  }
  const responseFormat = isObject(body.response_format) ? body.response_format : undefined;
  const jsonSchema = responseFormat && isObject(responseFormat.json_schema) ? responseFormat.json_schema : undefined;
  const last = messages[messages.length - 1];
  return {
    endpoint: "chat",
    model: typeof body.model === "string" ? body.model : "",
    texts,
    lastUser,
    lastRole: last && typeof last.role === "string" ? last.role : undefined,
    tools: Array.isArray(body.tools) ? body.tools.map(toolName).filter((n): n is string => !!n) : [],
    responseFormat,
    schemaName: jsonSchema && typeof jsonSchema.name === "string" ? jsonSchema.name : undefined,
  };
}

export function embeddingInputs(body: Json): string[] {
  const input = body.input;
  const one = (x: unknown): string => (typeof x === "string" ? x : Array.isArray(x) ? x.join(" ") : String(x ?? ""));
  if (typeof input === "string") return [input];
  if (Array.isArray(input)) {
    // A flat array of numbers is a single tokenised input.
    if (input.length > 0 && input.every((x) => typeof x === "number")) return [input.join(" ")];
    return input.map(one);
  }
  return [];
}

export function embeddingsView(body: Json): RequestView {
  const texts = embeddingInputs(body);
  return {
    endpoint: "embeddings",
    model: typeof body.model === "string" ? body.model : "",
    texts,
    lastUser: texts[texts.length - 1] ?? "",
    lastRole: undefined,
    tools: [],
    responseFormat: undefined,
    schemaName: undefined,
  };
}

export function ruleMatches(rule: FakeRule, view: RequestView): boolean {
  const m = rule.match;
  if (!m) return true;
  if (m.endpoint !== undefined && m.endpoint !== view.endpoint) return false;
  if (m.model !== undefined && m.model !== view.model) return false;
  if (m.lastUserContains !== undefined && !view.lastUser.includes(m.lastUserContains)) return false;
  if (m.anyContains !== undefined && !view.texts.some((t) => t.includes(m.anyContains as string))) return false;
  if (m.schemaName !== undefined && m.schemaName !== view.schemaName) return false;
  if (m.hasTools !== undefined && m.hasTools !== view.tools.length > 0) return false;
  if (m.afterToolResult !== undefined && m.afterToolResult !== (view.lastRole === "tool")) return false;
  return true;
}

const ERROR_KINDS: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: "invalid_request_error", code: null, message: "Invalid request." },
  401: { type: "invalid_request_error", code: "invalid_api_key", message: "Incorrect API key provided (fake server)." },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory", message: "Forbidden (fake server)." },
  404: { type: "invalid_request_error", code: "model_not_found", message: "Not found (fake server)." },
  429: { type: "requests", code: "rate_limit_exceeded", message: "Rate limit reached (fake server)." },
};

export function errorBody(status: number, message?: string): Json {
  const kind = ERROR_KINDS[status] ?? {
    type: status >= 500 ? "server_error" : "invalid_request_error",
    code: null,
    message: status >= 500 ? "The server had an error while processing your request (fake server)." : `HTTP ${status} (fake server).`,
  };
  return { error: { message: message ?? kind.message, type: kind.type, param: null, code: kind.code } };
}

/** The tool the default reply calls: a declared tool whose name appears as a word in the last user message. */
function mentionedTool(view: RequestView): string | undefined {
  if (view.lastRole === "tool") return undefined;
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return view.tools.find((name) => new RegExp(`(^|[^A-Za-z0-9_])${escape(name)}($|[^A-Za-z0-9_])`).test(view.lastUser));
}

/** A chat.completion body for `view`, answered by `reply` (a matched rule) or the default behaviour. */
export function chatCompletion(view: RequestView, reply: Reply | undefined, seq: number): Json {
  let content: string | null = null;
  let calls: { name: string; arguments: unknown }[] = [];
  if (reply && (reply.content !== undefined || reply.json !== undefined || reply.toolCalls !== undefined)) {
    if (reply.json !== undefined) content = JSON.stringify(reply.json);
    else if (reply.content !== undefined) content = reply.content;
    calls = reply.toolCalls ?? [];
  } else {
    const format = view.responseFormat;
    const tool = mentionedTool(view);
    if (format?.type === "json_schema") {
      const spec = isObject(format.json_schema) ? format.json_schema : {};
      content = JSON.stringify(schemaInstance(spec.schema));
    } else if (format?.type === "json_object") {
      content = JSON.stringify({ reply: `Fake reply: ${view.lastUser}` });
    } else if (tool) {
      calls = [{ name: tool, arguments: {} }];
    } else {
      content = `Fake reply: ${view.lastUser}`;
    }
  }
  const toolCalls = calls.map((c, i) => ({
    id: `call_fake_${seq}_${i}`,
    type: "function",
    function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}) },
  }));
  const message: Json = { role: "assistant", content, refusal: null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const prompt = view.texts.reduce((sum, t) => sum + countWords(t), 0);
  const completion = countWords(content ?? "") + toolCalls.reduce((s, c) => s + 1 + countWords(c.function.arguments), 0);
  const usage = reply?.usage ?? { prompt_tokens: prompt, completion_tokens: completion };
  return {
    id: `chatcmpl-fake-${seq}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: view.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop" }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    system_fingerprint: "fp_fake",
  };
}

function hash32(text: string): number {
  // FNV-1a
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Hashed bag-of-words vector, L2-normalised: equal texts → cosine 1, shared words → closer. */
export function embedText(text: string, dimensions = EMBEDDING_DIMENSIONS): number[] {
  const v = new Array<number>(dimensions).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const w of words) {
    const h = hash32(w);
    v[h % dimensions]! += 1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  if (norm === 0) {
    v[0] = 1;
    return v;
  }
  return v.map((x) => x / norm);
}

export function embeddingsResponse(body: Json, reply: Reply | undefined): Json {
  const texts = embeddingInputs(body);
  const requested = typeof body.dimensions === "number" && Number.isInteger(body.dimensions) ? body.dimensions : undefined;
  const dims = requested && requested > 0 && requested <= 4096 ? requested : EMBEDDING_DIMENSIONS;
  const base64 = body.encoding_format === "base64";
  const data = texts.map((text, index) => {
    const vector = embedText(text, dims);
    const embedding = base64 ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector;
    return { object: "embedding", index, embedding };
  });
  const tokens = reply?.usage?.prompt_tokens ?? texts.reduce((s, t) => s + countWords(t), 0);
  return {
    object: "list",
    data,
    model: typeof body.model === "string" ? body.model : "",
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

export function modelObject(id: string): Json {
  return { id, object: "model", created: 1700000000, owned_by: "fake-openai" };
}
