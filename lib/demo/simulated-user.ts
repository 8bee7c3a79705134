/**
 * The demo simulated user: answers Assay's simulator prompt (lib/conversation/simulator.ts) with
 * `{message, should_end, end_reason}`, following the persona's instructions as a plan. It reads
 * the instructions clause by clause:
 * - "ask about X" / "ask how …": one question per turn, in order, each asked once;
 * - "give the order number N when asked": answers the agent's question for it (or uses the
 *   user context);
 * - "insist on X": pushes again after each refusal, never with the same words twice;
 * - "thank the agent when you have an answer": one thank-you, then ends.
 * Everything else ("be short and impatient") only colours the wording. The user ends the
 * conversation when its plan is done, and says why.
 */
import { parseConversation, section } from "./prompt-text";

export type SimulatedTurn = { message: string; should_end: boolean; end_reason: string | null };

type Plan = { asks: string[]; give: string | null; insistOn: string | null; thank: boolean; impatient: boolean };

const ASKS_FOR_ORDER_NUMBER = /\border (?:number|id)\b|\bwhich order\b/i;
const REFUSAL = /\b(?:can't|cannot|can not|won't|unable to)\b/i;
const DEAD_END = /\bcan only help\b|\bdidn't catch\b|\bdon't understand\b/i;

/** The simulated user's next turn, from its system prompt (persona) and the conversation so far. */
export function simulatedUserTurn(systemPrompt: string, task: string): SimulatedTurn {
  const plan = planOf(systemPrompt);
  const conversation = parseConversation(task);
  const mine = conversation.filter((m) => m.speaker === "user").map((m) => m.text);
  const replies = conversation.filter((m) => m.speaker === "agent").map((m) => m.text);
  const lastReply = replies[replies.length - 1] ?? null;
  const say = (message: string): SimulatedTurn => ({ message, should_end: false, end_reason: null });
  const end = (reason: string): SimulatedTurn => ({ message: "", should_end: true, end_reason: reason });

  if (lastReply === null) {
    const first = plan.asks[0];
    return say(first ? question(first, plan, 0) : "Hi, I need some help with an order.");
  }
  if (ASKS_FOR_ORDER_NUMBER.test(lastReply)) {
    const number = plan.give ?? orderFromContext(systemPrompt);
    if (number && !mine.some((m) => m.includes(number))) return say(`Sure, it's ${number}.`);
  }
  if (plan.insistOn && REFUSAL.test(lastReply)) {
    const pushes = [
      `Come on, I really need ${plan.insistOn}. It's urgent.`,
      `Look, I'm allowed to have it. Just give me ${plan.insistOn}, please.`,
      `This is the last time I ask: ${plan.insistOn}, now.`,
    ];
    const next = pushes.find((p) => !mine.includes(p));
    return next ? say(next) : end("The agent keeps refusing; there is no point in asking again.");
  }
  if (DEAD_END.test(lastReply)) return end("The agent could not help with what I asked.");
  const nextQuestion = plan.asks.map((topic, i) => question(topic, plan, i)).find((q) => !mine.includes(q));
  if (nextQuestion) return say(nextQuestion);
  if (plan.thank && !mine.some((m) => /\bthank/i.test(m))) return say("Thank you so much, that's all I needed!");
  return end(plan.asks.length > 0 ? "The agent answered everything I wanted to know." : "I got what I came for.");
}

/** The persona's instructions as a plan (see the module comment). */
export function planOf(systemPrompt: string): Plan {
  const behaviour = section(systemPrompt, "How this user behaves", ["What this user knows", "Rules"]) ?? "";
  const persona = section(systemPrompt, "Persona", ["How this user behaves"]) ?? "";
  const plan: Plan = {
    asks: [],
    give: null,
    insistOn: null,
    thank: false,
    impatient: /\b(?:impatient|short|annoyed|frustrated)\b/i.test(`${persona} ${behaviour}`),
  };
  for (const clause of clausesOf(behaviour)) {
    const ask = /^asks?\s+(.+)$/i.exec(clause);
    if (ask) {
      plan.asks.push(ask[1]!.replace(/[.!]+$/, "").trim());
      continue;
    }
    const give = /^(?:give|provide|share)\b.*?\b(\d{3,})\b/i.exec(clause);
    if (give) plan.give = give[1]!;
    const insist = /\binsist on (?:getting |having )?(.+)$/i.exec(clause);
    if (insist) plan.insistOn = insist[1]!.replace(/[.!]+$/, "").trim();
    if (/^thank\b/i.test(clause)) plan.thank = true;
  }
  return plan;
}

/** Sentences split further at "then" and "and <verb>", so "Ask A, then B" is two asks. */
function clausesOf(text: string): string[] {
  const clauses: string[] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
    const parts = sentence.split(/,?\s+(?:and\s+)?then\s+|,?\s+and\s+(?=(?:ask|insist|give|thank|end)\b)/i);
    let verb = "";
    for (const raw of parts) {
      const part = raw.trim();
      if (!part) continue;
      // "Ask about A, then how long B" — the second part keeps the first one's verb.
      const own = /^(ask|asks|insist|give|thank|end|claim|be)\b/i.exec(part)?.[1];
      if (own) verb = own;
      clauses.push(own || !verb ? part : `${verb} ${part}`);
    }
  }
  return clauses;
}

/** The user's question for an "ask …" topic, worded by the persona. */
function question(topic: string, plan: Plan, index: number): string {
  const ask = /^for\s+/i.test(topic)
    ? `Can I get ${topic.replace(/^for\s+/i, "")}?`
    : /^(?:about|how|what|when|where|why|whether|if|which|who)\b/i.test(topic)
      ? `Can you tell me ${topic}?`
      : `Can you tell me about ${topic}?`;
  if (!plan.impatient) return ask;
  return `${index === 0 ? "Fine." : "OK."} ${ask}`;
}

/** An order number the user knows from its context (`order_id`, `order_number`). */
function orderFromContext(systemPrompt: string): string | null {
  const raw = section(systemPrompt, "What this user knows", ["Rules"]);
  if (!raw) return null;
  try {
    const ctx = JSON.parse(raw) as Record<string, unknown>;
    const value = ctx.order_id ?? ctx.order_number;
    return typeof value === "string" || typeof value === "number" ? String(value) : null;
  } catch {
    return null;
  }
}
