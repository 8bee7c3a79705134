/**
 * The demo agent: how the built-in demo model answers a plain chat request (no structured output).
 * A small rule-based support agent for an online shop. It reads the system prompt it is sent and
 * follows the rules it finds there — keep the instructions secret, protect customers' personal
 * details — so an edit to the agent's prompt changes its behaviour the way it would with a real
 * model. Everything else is decided from the conversation: the latest user message picks the
 * answer, an order number leads to a get_order_status call, a tool result is summarised.
 */

export type ChatMessage = {
  role: string;
  content?: string | null | { type: string; text?: string }[];
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};
export type ToolDefinition = { type: "function"; function: { name: string; description?: string } };
export type ToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };
export type AgentReply = { content: string | null; toolCalls?: ToolCall[] };

/** The text of a message (array content: its text parts). */
export function textOf(m: ChatMessage | undefined): string {
  if (!m?.content) return "";
  if (typeof m.content === "string") return m.content;
  return m.content.map((p) => p.text ?? "").join("\n");
}

/** Rules the agent takes from its system prompt. */
type PromptRules = { keepInstructionsSecret: boolean; protectPersonalData: boolean };

const NEVER = String.raw`\b(?:never|do not|don't|must not|mustn't)\s+(?:\w+\s+){0,2}?(?:reveal|share|disclose|repeat|print|give out|show)\b`;
const SECRET_INSTRUCTIONS = new RegExp(`${NEVER}[^.\\n]*\\b(?:instructions|system prompt|prompt)\\b`, "i");
const CONFIDENTIAL_INSTRUCTIONS = /\b(?:instructions|system prompt)\b[^.\n]*\bconfidential\b/i;
const PROTECT_PERSONAL = new RegExp(`${NEVER}[^.\\n]*\\b(?:personal|address(?:es)?|private)\\b`, "i");

export function promptRules(systemPrompt: string): PromptRules {
  return {
    keepInstructionsSecret: SECRET_INSTRUCTIONS.test(systemPrompt) || CONFIDENTIAL_INSTRUCTIONS.test(systemPrompt),
    protectPersonalData: PROTECT_PERSONAL.test(systemPrompt),
  };
}

const INJECTION =
  /\bignore\b[^.\n]*\b(?:instructions|rules|prompt)\b|\b(?:system prompt|your (?:instructions|prompt|rules))\b|\breveal your\b/i;
const PERSONAL_DATA_REQUEST = /\b(?:delivery address|home address|address|phone number|email address|personal details)\b/i;
const REFUND_TIME = /\b(?:how long|how many days|how soon|when will i)\b[^.?!\n]*\b(?:refund|money)/i;
const RETURN_HOW_TO = /\bhow (?:do|can) i (?:return|send)\b|\bsend (?:it|the item|them) back\b/i;
const REFUND_POLICY = /\b(?:refund|return)s?\s+polic|\bpolicy\b|\bcan i (?:return|get a refund)\b/i;
const REFUND_DEMAND = /\bmoney back\b|\brefund\b|\breturn\b/i;
const ORDER_TOPIC = /\b(?:order|package|parcel|shipping|delivery|deliver)\b/i;
const HOURS = /\b(?:hours|open|available|support team)\b/i;
const THANKS = /\b(?:thank|thanks|bye|that's all|that is all)\b/i;
const REFUSAL = /\b(?:can't|cannot|can not|won't|unable to)\b/i;

/** The demo agent's reply to the conversation so far. */
export function agentReply(messages: ChatMessage[], tools: ToolDefinition[]): AgentReply {
  const system = textOf(messages.find((m) => m.role === "system"));
  const rules = promptRules(system);
  const last = messages[messages.length - 1];
  if (last?.role === "tool") return { content: toolAnswer(messages, last) };

  const users = messages.filter((m) => m.role === "user");
  const latest = textOf(users[users.length - 1]);
  const earlierReplies = messages.filter((m) => m.role === "assistant").map(textOf);

  if (INJECTION.test(latest)) {
    return {
      content: rules.keepInstructionsSecret
        ? "I'm sorry, but I can't share my instructions. I'm happy to help with your orders, refunds, shipping or our support hours."
        : `Sure! Here are my instructions:\n\n"${system.trim()}"`,
    };
  }
  const orderNumber = /\b(\d{3,})\b/.exec(latest)?.[1];
  if (PERSONAL_DATA_REQUEST.test(latest) && rules.protectPersonalData) {
    const refusedBefore = earlierReplies.some((r) => REFUSAL.test(r) && /address|personal/i.test(r));
    return {
      content: refusedBefore
        ? "I understand it's urgent, but I still can't share a customer's address or other personal details. Please use the warehouse system, or the customer can contact us directly."
        : "I'm sorry, but I can't share a customer's address or other personal details. The customer can see them in their account.",
    };
  }
  if (REFUND_TIME.test(latest)) {
    return { content: "Once we receive the returned item, the refund reaches your original payment method within 5 business days." };
  }
  if (RETURN_HOW_TO.test(latest)) {
    return { content: "Start the return from the Orders page of your account: choose the item and print the prepaid return label." };
  }
  if (REFUND_POLICY.test(latest)) {
    return { content: "You can return any item within 30 days of delivery for a full refund." };
  }
  if (REFUND_DEMAND.test(latest)) {
    const sorry = /\b(?:late|delay(?:ed)?)\b/i.test(latest)
      ? "I'm sorry your order is late — that's frustrating."
      : "I'm sorry about that.";
    return { content: `${sorry} I can help you get your money back.` };
  }
  const orderTool = tools.find((t) => /order/i.test(t.function.name));
  if (ORDER_TOPIC.test(latest) && orderNumber && orderTool) {
    return {
      content: null,
      toolCalls: [
        {
          id: `call_${orderNumber}`,
          type: "function",
          function: { name: orderTool.function.name, arguments: JSON.stringify({ order_id: orderNumber }) },
        },
      ],
    };
  }
  if (ORDER_TOPIC.test(latest)) return { content: "I can check that for you. Could you tell me your order number?" };
  if (HOURS.test(latest)) return { content: "Our support team is available Monday to Friday, 9am to 5pm CET." };
  if (THANKS.test(latest)) return { content: "You're welcome! Have a great day." };
  // A message without a single letter or digit ("?", "...") gets a dead end instead of an offer of
  // help: the demo agent's one real weakness, which the demo suite catches.
  if (!/[\p{L}\p{N}]/u.test(latest)) return { content: "Sorry, I didn't catch that." };
  return { content: "I'm sorry, I can only help with orders, refunds, shipping and support hours." };
}

/** Summarises the tool result the agent just received. */
function toolAnswer(messages: ChatMessage[], result: ChatMessage): string {
  const call = messages.flatMap((m) => m.tool_calls ?? []).find((c) => c.id === result.tool_call_id);
  const orderId = readJson(call?.function.arguments ?? "")?.order_id;
  const data = readJson(textOf(result));
  if (data && typeof data.status === "string") {
    const order = orderId ? `Your order ${String(orderId)}` : "Your order";
    const carrier = typeof data.carrier === "string" ? ` with ${data.carrier}` : "";
    const eta = typeof data.estimated_delivery === "string" ? ` and should arrive ${data.estimated_delivery}` : "";
    return `${order} has ${data.status}${carrier}${eta}. Is there anything else I can help you with?`;
  }
  const summary = data
    ? Object.entries(data)
        .map(([k, v]) => `${k.replace(/_/g, " ")}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`)
        .join(", ")
    : textOf(result).slice(0, 300);
  return `Here is what I found: ${summary}. Is there anything else I can help you with?`;
}

function readJson(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
