// In-test EvalLlm and case builders for the evaluation tests.
import { expect } from "vitest";
import type { EvalJsonRequest, EvalLlm, EvaluatedCase, TranscriptMessage } from "@/lib/evaluation/types";

/** A metric configuration's stored defaults: what a metric named alone comes back with. */
export const METRIC_DEFAULTS = {
  threshold: null,
  enabled: true,
  scale: 5,
  model: null,
  fail_on_error: false,
  retry_on_failure: null,
  timeout_ms: null,
  custom_prompt: null,
};

export type JsonHandler = (req: EvalJsonRequest, callNo: number) => string | Promise<string>;

export type FakeLlm = EvalLlm & { calls: EvalJsonRequest[]; embedCalls: string[][] };

/** An EvalLlm whose replies come from `handler` (throw in it to simulate transport errors). */
export function fakeLlm(
  handler: JsonHandler,
  embed: (texts: string[]) => number[][] | Promise<number[][]> = (texts) => texts.map(() => [1, 0]),
  model = "judge-model",
): FakeLlm {
  const calls: EvalJsonRequest[] = [];
  const embedCalls: string[][] = [];
  return {
    model,
    calls,
    embedCalls,
    async json(req) {
      calls.push(req);
      return { raw: await handler(req, calls.length) };
    },
    async embed(texts) {
      embedCalls.push(texts);
      return embed(texts);
    },
  };
}

export function caseData(overrides: Partial<EvaluatedCase> = {}): EvaluatedCase {
  return {
    name: "case",
    initial_message: "Where is my order 42?",
    checks: [],
    mode: "all",
    expected_tool_calls: null,
    expected_outcomes: null,
    evaluation_criteria_override: null,
    ground_truth: null,
    ...overrides,
  };
}

/** Verdicts for o1..oN as the outcome judge would answer. */
export function outcomeReply(verdicts: ("pass" | "fail")[], evidence: number[] = [2]): string {
  return JSON.stringify(
    Object.fromEntries(verdicts.map((v, i) => [`o${i + 1}`, { reasoning: `reason ${i + 1}`, evidence_turns: evidence, verdict: v }])),
  );
}

/**
 * The conversation the evaluation tests judge: behind the system prompt, one turn in which the
 * agent looks order 42 up with a tool (call c1) and answers that it has shipped.
 */
export const ORDER_TURN: TranscriptMessage[] = [
  { role: "system", content: "You are a support agent." },
  { role: "user", content: "Where is my order 42?" },
  { role: "assistant", content: null, tool_calls: [{ id: "c1", name: "search_orders", arguments: '{"order_id":42}' }] },
  { role: "tool", tool_call_id: "c1", content: '{"status":"shipped"}' },
  { role: "assistant", content: "Your order 42 has shipped." },
];

/** ORDER_TURN followed by a second turn: the user asks `question` and the agent answers `reply`. */
export function orderConversation(question: string, reply: string): TranscriptMessage[] {
  return [...ORDER_TURN, { role: "user", content: question }, { role: "assistant", content: reply }];
}

/**
 * An orderConversation as the judge reads it: the system prompt apart, ORDER_TURN as turn 1 (the
 * tool call and its result inside it) and `question` as turn 2.
 */
export function expectRenderedOrderConversation(text: string, question: string) {
  expect(text).toContain("System prompt (the agent's instructions; not a turn):\nYou are a support agent.");
  expect(text).toContain("Turn 1 — user:\nWhere is my order 42?");
  expect(text).toContain('Turn 1 — agent:\n  → TOOL CALL search_orders({"order_id":42}) [call c1]');
  expect(text).toContain('Turn 1 — tool result for search_orders (call c1):\n{"status":"shipped"}');
  expect(text).toContain("Turn 1 — agent:\nYour order 42 has shipped.");
  expect(text).toContain(`Turn 2 — user:\n${question}`);
}
