/**
 * The built-in demo model: a deterministic, rule-based stand-in for an OpenAI-compatible endpoint
 * so the demo suite runs end to end on a fresh install without any API key. It is clearly
 * labelled in the UI and never used unless a model configuration points at DEMO_BASE_URL.
 *
 * It answers every kind of call Assay makes from what the call contains, never from hidden state:
 * - a plain chat request is the agent under test (./agent.ts: follows the rules its system prompt
 *   states, calls the mocked get_order_status tool);
 * - structured output is the simulated user (./simulated-user.ts), the outcome judge, an
 *   llm_judge check or a metric (./judge.ts), told apart by the schema they ask for;
 * - embeddings are hashed bags of words.
 * Each call takes a realistic, repeatable time (`demoLatencyMs`: a range per kind of call, the
 * point in it from a hash of the request), spent inside `demoFetch`, so the executor measures it
 * like any model's latency and a run takes a few seconds. Nothing leaves the process.
 */
import { agentReply, textOf, type ChatMessage, type ToolCall, type ToolDefinition } from "./agent";
import { judgeCheckPrompt, judgeOutcomePrompt, scoreMetricPrompt } from "./judge";
import { simulatedUserTurn } from "./simulated-user";

export const DEMO_HOST = "demo.assay.invalid";
export const DEMO_BASE_URL = `https://${DEMO_HOST}/v1`;
export const DEMO_MODEL = "assay-demo-1";

type ChatBody = {
  model?: string;
  messages?: ChatMessage[];
  tools?: (ToolDefinition & { function: { parameters?: JsonSchema } })[];
  tool_choice?: unknown;
  response_format?: { type: string; json_schema?: { name?: string; schema?: JsonSchema } };
};
type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
};

/** The kinds of call the demo model tells apart, each with its own latency range. */
export type DemoCallKind = "agent" | "simulator" | "judge" | "check" | "metric" | "embeddings" | "models";

/** Milliseconds per kind of call, [min, max]: a chat model's answer takes longest, embeddings least. */
export const DEMO_LATENCY_MS: Record<DemoCallKind, readonly [number, number]> = {
  agent: [600, 1100],
  simulator: [250, 500],
  judge: [400, 800],
  check: [250, 500],
  metric: [250, 500],
  embeddings: [60, 150],
  models: [10, 30],
};

/** The simulated latency of one call: a point in its kind's range picked by a hash of the request. */
export function demoLatencyMs(kind: DemoCallKind, rawBody: string): number {
  const [min, max] = DEMO_LATENCY_MS[kind];
  return min + (fnv1a(rawBody) % (max - min + 1));
}

function fnv1a(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const tokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

/** Which kind of call a chat completion request is (see DemoCallKind). */
export function chatCallKind(body: ChatBody): DemoCallKind {
  const schema = structuredSchema(body);
  if (!schema) return "agent";
  const props = schema.schema.properties ?? {};
  if ("message" in props && "should_end" in props) return "simulator";
  if (Object.keys(props).some((k) => /^o\d+$/.test(k))) return "judge";
  if ("verdict" in props) return "check";
  return "metric";
}

/** The JSON schema the request asks the answer to follow (response_format, or one forced function). */
function structuredSchema(body: ChatBody): { schema: JsonSchema; viaFunction: string | null } | null {
  if (body.response_format?.type === "json_schema" && body.response_format.json_schema?.schema) {
    return { schema: body.response_format.json_schema.schema, viaFunction: null };
  }
  const name = (body.tool_choice as { function?: { name?: string } } | undefined)?.function?.name;
  const tool = name ? (body.tools ?? []).find((t) => t.function.name === name) : undefined;
  return tool?.function.parameters ? { schema: tool.function.parameters, viaFunction: name! } : null;
}

export function demoChatCompletion(body: ChatBody) {
  const messages = body.messages ?? [];
  const promptText = messages.map(textOf).join("\n");
  let content: string | null = null;
  let toolCalls: ToolCall[] | undefined;

  const structured = structuredSchema(body);
  if (structured) {
    const answer = JSON.stringify(structuredAnswer(structured.schema, messages));
    if (structured.viaFunction) {
      toolCalls = [{ id: "call_demo_0", type: "function", function: { name: structured.viaFunction, arguments: answer } }];
    } else {
      content = answer;
    }
  } else {
    const reply = agentReply(messages, body.tools ?? []);
    content = reply.content;
    toolCalls = reply.toolCalls;
  }
  const completion = content ?? JSON.stringify(toolCalls ?? []);
  return {
    id: `chatcmpl-demo-${fnv1a(promptText).toString(36)}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model ?? DEMO_MODEL,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
        finish_reason: toolCalls ? "tool_calls" : "stop",
      },
    ],
    usage: {
      prompt_tokens: tokens(promptText),
      completion_tokens: tokens(completion),
      total_tokens: tokens(promptText) + tokens(completion),
    },
  };
}

/** Answers structured-output requests (simulated user, judge, checks, metrics) from the prompt text. */
function structuredAnswer(schema: JsonSchema, messages: ChatMessage[]): unknown {
  const props = schema.properties ?? {};
  const system = messages
    .filter((m) => m.role === "system")
    .map(textOf)
    .join("\n");
  const user = messages
    .filter((m) => m.role === "user")
    .map(textOf)
    .join("\n");
  if ("message" in props && "should_end" in props) return fill(schema, simulatedUserTurn(system, user));
  const outcomeKeys = Object.keys(props).filter((k) => /^o\d+$/.test(k));
  if (outcomeKeys.length > 0) return fill(schema, judgeOutcomePrompt(user, outcomeKeys));
  if ("verdict" in props) return fill(schema, judgeCheckPrompt(user));
  if ("score" in props) {
    return fill(schema, scoreMetricPrompt(`${system}\n${user}`, props.score?.minimum ?? 1, props.score?.maximum ?? 5));
  }
  return fill(schema, {});
}

/** Fills `preferred` values into a minimal valid instance of `schema`. */
function fill(schema: JsonSchema, preferred: Record<string, unknown>): unknown {
  if (schema.type !== "object" || !schema.properties) return preferred;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(schema.properties)) {
    if (key in preferred) out[key] = preferred[key];
    else if (schema.required?.includes(key)) out[key] = minimal(sub);
  }
  return out;
}

function minimal(s: JsonSchema): unknown {
  if (s.enum?.length) return s.enum[0];
  switch (s.type) {
    case "string":
      return "";
    case "number":
    case "integer":
      return s.minimum ?? 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return fill(s, {});
    default:
      return null;
  }
}

const embeddingWords = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? [];

/** Deterministic hashed bag-of-words embeddings (64 dimensions, L2-normalised). */
export function demoEmbeddings(body: { input?: string | string[]; model?: string }) {
  const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ""];
  const data = inputs.map((text, index) => {
    const v = new Array<number>(64).fill(0);
    for (const w of embeddingWords(text)) {
      let h = 2166136261;
      for (const ch of w) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
      v[Math.abs(h) % 64]! += 1;
    }
    const norm = Math.hypot(...v) || 1;
    return { object: "embedding", index, embedding: v.map((x) => x / norm) };
  });
  const used = inputs.reduce((a, t) => a + tokens(t), 0);
  return { object: "list", data, model: body.model ?? "assay-demo-embed", usage: { prompt_tokens: used, total_tokens: used } };
}

/**
 * A fetch that answers requests to DEMO_BASE_URL in process (never touches the network). It
 * waits the call's simulated latency before answering, and like a real fetch it rejects with the
 * signal's reason when the caller aborts (a timeout, a cancelled run) meanwhile.
 */
export const demoFetch: typeof fetch = async (input, init) => {
  const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  const raw = typeof init?.body === "string" ? init.body : init?.body ? await new Response(init.body).text() : "{}";
  let body: unknown;
  try {
    body = JSON.parse(raw || "{}");
  } catch {
    return Response.json({ error: { message: "invalid JSON body", type: "invalid_request_error" } }, { status: 400 });
  }
  const path = url.pathname;
  const kind: DemoCallKind | null = path.endsWith("/chat/completions")
    ? chatCallKind(body as ChatBody)
    : path.endsWith("/embeddings")
      ? "embeddings"
      : path.endsWith("/models")
        ? "models"
        : null;
  if (kind === null) return Response.json({ error: { message: `not found: ${path}`, type: "invalid_request_error" } }, { status: 404 });
  await pause(demoLatencyMs(kind, `${path}\n${raw}`), init?.signal ?? undefined);
  if (kind === "embeddings") return Response.json(demoEmbeddings(body as { input?: string | string[] }));
  if (kind === "models") return Response.json({ object: "list", data: [{ id: DEMO_MODEL, object: "model", owned_by: "assay" }] });
  return Response.json(demoChatCompletion(body as ChatBody));
};

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => signal?.reason ?? new DOMException("This operation was aborted", "AbortError");
    if (signal?.aborted) return reject(aborted());
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function isDemoUrl(url: string): boolean {
  try {
    return new URL(url).hostname === DEMO_HOST;
  } catch {
    return false;
  }
}
