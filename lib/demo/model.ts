/**
 * The built-in demo model: a deterministic, rule-based stand-in for an OpenAI-compatible
 * endpoint so the demo suite runs end to end on a fresh install without any API key. It is
 * clearly labelled in the UI and never used unless a model configuration points at
 * DEMO_BASE_URL. Answers are canned, not intelligent.
 */
export const DEMO_HOST = "demo.assay.invalid";
export const DEMO_BASE_URL = `https://${DEMO_HOST}/v1`;
export const DEMO_MODEL = "assay-demo-1";

type Msg = {
  role: string;
  content?: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};
type Tool = { type: "function"; function: { name: string; description?: string } };
type ChatBody = {
  model?: string;
  messages?: Msg[];
  tools?: Tool[];
  tool_choice?: unknown;
  response_format?: { type: string; json_schema?: { name?: string; schema?: JsonSchema } };
};
type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
};

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? [];
const tokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

export function demoChatCompletion(body: ChatBody) {
  const messages = body.messages ?? [];
  const promptText = messages.map((m) => m.content ?? "").join("\n");
  let content: string | null = null;
  let toolCalls: { id: string; type: "function"; function: { name: string; arguments: string } }[] | undefined;

  if (body.response_format?.type === "json_schema" && body.response_format.json_schema?.schema) {
    content = JSON.stringify(structuredAnswer(body.response_format.json_schema.schema, promptText));
  } else {
    const forced = forcedFunction(body);
    if (forced) {
      toolCalls = [
        {
          id: "call_demo_0",
          type: "function",
          function: { name: forced.name, arguments: JSON.stringify(structuredAnswer(forced.schema, promptText)) },
        },
      ];
    } else {
      const reply = agentReply(messages, body.tools ?? []);
      content = reply.content;
      toolCalls = reply.toolCalls;
    }
  }
  const completion = content ?? "";
  return {
    id: `chatcmpl-demo-${Date.now().toString(36)}`,
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

function forcedFunction(body: ChatBody): { name: string; schema: JsonSchema } | null {
  const choice = body.tool_choice as { function?: { name?: string } } | undefined;
  const name = choice?.function?.name;
  if (!name) return null;
  const tool = (body.tools ?? []).find((t) => t.function.name === name) as (Tool & { function: { parameters?: JsonSchema } }) | undefined;
  return tool?.function.parameters ? { name, schema: tool.function.parameters } : null;
}

/** The demo agent: looks up orders with its tool, states the refund policy, refuses prompt injection. */
function agentReply(
  messages: Msg[],
  tools: Tool[],
): { content: string | null; toolCalls?: { id: string; type: "function"; function: { name: string; arguments: string } }[] } {
  const last = messages[messages.length - 1];
  const lastUser = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const text = lastUser.toLowerCase();
  const toolNames = new Set(tools.map((t) => t.function.name));
  if (last?.role === "tool") {
    return { content: `Here is what I found: ${summarise(last.content ?? "")}. Is there anything else I can help you with?` };
  }
  if (/ignore (all |your |previous )*instructions|system prompt|reveal/.test(text)) {
    return {
      content: "I'm sorry, but I can't share my instructions or act outside my role. I can help with orders, refunds and shipping.",
    };
  }
  const order = /\b(\d{3,})\b/.exec(lastUser)?.[1];
  if (/order|package|shipping|deliver/.test(text) && toolNames.has("get_order_status") && order) {
    return {
      content: null,
      toolCalls: [
        { id: `call_${order}`, type: "function", function: { name: "get_order_status", arguments: JSON.stringify({ order_id: order }) } },
      ],
    };
  }
  if (/order|package/.test(text) && !order) return { content: "I can check that for you. Could you tell me your order number?" };
  if (/refund|return|money back/.test(text)) {
    return {
      content:
        "You can return any item within 30 days of delivery for a full refund. Refunds reach your original payment method within 5 business days.",
    };
  }
  if (/hours|open|support/.test(text)) return { content: "Our support team is available Monday to Friday, 9am to 5pm CET." };
  if (/thank|bye|that's all|that is all/.test(text)) return { content: "You're welcome! Have a great day." };
  if (text.trim() === "") return { content: "Hello! How can I help you today?" };
  return { content: "I'm sorry, I can only help with orders, refunds, shipping and support hours." };
}

function summarise(toolContent: string): string {
  try {
    const v = JSON.parse(toolContent) as Record<string, unknown>;
    return Object.entries(v)
      .map(([k, val]) => `${k.replace(/_/g, " ")}: ${typeof val === "object" ? JSON.stringify(val) : String(val)}`)
      .join(", ");
  } catch {
    return toolContent.slice(0, 300);
  }
}

/** Answers structured-output requests (simulated user, judge, checks, metrics) from the prompt text. */
function structuredAnswer(schema: JsonSchema, prompt: string): unknown {
  const props = schema.properties ?? {};
  if ("message" in props && "should_end" in props) {
    const agentTurns = (prompt.match(/\b(assistant|agent)\b/gi) ?? []).length;
    const done = agentTurns >= 2;
    return fill(schema, {
      message: done ? "Thanks, that's all I needed." : "Thanks. Could you also tell me how long a refund takes?",
      should_end: done,
      end_reason: done ? "satisfied" : null,
    });
  }
  const outcomeKeys = Object.keys(props).filter((k) => /^o\d+$/.test(k));
  if (outcomeKeys.length) {
    const answer: Record<string, unknown> = {};
    for (const key of outcomeKeys) {
      const line = new RegExp(`\\b${key}\\b[^\\n]*`, "i").exec(prompt)?.[0] ?? "";
      const pass = overlaps(line, agentText(prompt));
      answer[key] = fill(props[key]!, {
        reasoning: pass ? "The agent's replies address this outcome." : "Nothing in the agent's replies shows this outcome was met.",
        evidence_turns: [],
        verdict: pass ? "pass" : "fail",
      });
    }
    return fill(schema, answer);
  }
  if ("verdict" in props) {
    const expected = /expected answer[^\n]*\n?([^\n]+)/i.exec(prompt)?.[1] ?? "";
    const pass = overlaps(expected, prompt.slice(prompt.toLowerCase().lastIndexOf("response")));
    return fill(schema, {
      reasoning: pass ? "The response covers the expected answer." : "The response misses the expected answer.",
      verdict: pass ? "pass" : "fail",
    });
  }
  if ("score" in props) {
    const max = props.score?.maximum ?? 5;
    return fill(schema, { reasoning: "Demo model: a fixed, fairly good score.", score: Math.max(props.score?.minimum ?? 1, max - 1) });
  }
  return fill(schema, {});
}

function agentText(prompt: string): string {
  return prompt
    .split("\n")
    .filter((l) => /assistant|agent/i.test(l))
    .join(" ");
}

function overlaps(a: string, b: string): boolean {
  const target = new Set(words(b));
  const keys = words(a).filter((w) => !["outcome", "expected", "agent", "user", "true", "false", "should"].includes(w));
  return keys.length === 0 || keys.some((w) => target.has(w));
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

/** Deterministic hashed bag-of-words embeddings (64 dimensions, L2-normalised). */
export function demoEmbeddings(body: { input?: string | string[]; model?: string }) {
  const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ""];
  const data = inputs.map((text, index) => {
    const v = new Array<number>(64).fill(0);
    for (const w of words(text)) {
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

/** A fetch that answers requests to DEMO_BASE_URL in process (never touches the network). */
export const demoFetch: typeof fetch = async (input, init) => {
  const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  const raw = typeof init?.body === "string" ? init.body : init?.body ? await new Response(init.body).text() : "{}";
  let body: unknown;
  try {
    body = JSON.parse(raw || "{}");
  } catch {
    return Response.json({ error: { message: "invalid JSON body", type: "invalid_request_error" } }, { status: 400 });
  }
  if (url.pathname.endsWith("/chat/completions")) return Response.json(demoChatCompletion(body as ChatBody));
  if (url.pathname.endsWith("/embeddings")) return Response.json(demoEmbeddings(body as { input?: string | string[] }));
  if (url.pathname.endsWith("/models"))
    return Response.json({ object: "list", data: [{ id: DEMO_MODEL, object: "model", owned_by: "assay" }] });
  return Response.json({ error: { message: `not found: ${url.pathname}`, type: "invalid_request_error" } }, { status: 404 });
};

export function isDemoUrl(url: string): boolean {
  try {
    return new URL(url).hostname === DEMO_HOST;
  } catch {
    return false;
  }
}
