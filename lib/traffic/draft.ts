/**
 * Turning a conversation (real traffic, or a case result's transcript) into a test case draft,
 * for a person to review before it is saved:
 * - one user turn → a single-turn case: the opening message, and (on request) expected outcomes
 *   the judge drafts from the agent's answer;
 * - several → a simulated-user case: the first user message opens, `max_turns` = user turns + 2,
 *   expected tool calls from the tools the agent called (names always, their arguments when
 *   asked to keep them), and the persona, user context and expected outcomes drafted by the
 *   suite's judge model from the user's turns and how the conversation ended.
 * Without a judge model the draft has everything but the drafted fields, and says why. A judge
 * that fails or answers nonsense leaves them out the same way, never half-filled.
 */
import "server-only";
import { z } from "zod";
import type { LlmClient } from "@/lib/llm/client";
import { LlmError } from "@/lib/llm/errors";
import type { TranscriptMessage } from "@/lib/conversation/types";
import type { CaseSourceInput } from "@/lib/test-cases/schemas";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import type { DraftKind } from "./schemas";
import type { CaseDraft, DraftedCase } from "./dto";

export type { CaseDraft, DraftedCase } from "./dto";

export type DraftOptions = {
  kind?: DraftKind;
  /** Draft expected outcomes for a single-turn case too. */
  draftOutcomes?: boolean;
  /** Keep the arguments the agent called each tool with as expected parameters. */
  keepToolParams?: boolean;
};

export type DraftInput = {
  messages: TranscriptMessage[];
  source: NonNullable<CaseSourceInput>;
  /** Where it came from, for the case's description ("service checkout-bot, 2026-11-27 14:02 UTC"). */
  origin: string;
  /** The suite's judge model; null when the suite has none. */
  judge: LlmClient | null;
  /** Why there is no judge, for the note (e.g. "the suite has no judge model"). */
  noJudgeReason?: string;
};

const NAME_CHARS = 80;

const firstLine = (text: string, max: number) => {
  const line = text.trim().split("\n", 1)[0]!.trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
};

/** The tools the agent called, once each in first-call order, with the arguments of that first call. */
export function calledTools(messages: TranscriptMessage[]): { name: string; arguments: Record<string, unknown> | null }[] {
  const seen = new Map<string, Record<string, unknown> | null>();
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    for (const call of m.tool_calls ?? []) {
      if (seen.has(call.name)) continue;
      let args: Record<string, unknown> | null = null;
      try {
        const parsed: unknown = JSON.parse(call.arguments);
        if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
      } catch {
        // arguments that are not a JSON object cannot be expected parameters
      }
      seen.set(call.name, args);
    }
  }
  return [...seen].map(([name, args]) => ({ name, arguments: args }));
}

const personaDraft = z.object({
  persona: z.object({
    type: z.string().trim().min(1).max(TEXT_LIMITS.shortName),
    description: z.string().trim().min(1).max(TEXT_LIMITS.description),
    instructions: z.string().trim().min(1).max(TEXT_LIMITS.prompt),
  }),
  user_context: z.array(z.object({ key: z.string().trim().min(1).max(200), value: z.string().max(TEXT_LIMITS.description) })).max(30),
  expected_outcomes: z
    .array(z.object({ label: z.string().trim().min(1).max(TEXT_LIMITS.label), description: z.string().trim().min(1) }))
    .max(10),
});

const outcomesDraft = personaDraft.pick({ expected_outcomes: true });

const stringField = { type: "string" };
/** A list of objects with two required text fields (the outcomes' label/description, the context's key/value). */
const textPairs = (description: string, [first, second]: [string, string]) => ({
  type: "array",
  description,
  items: {
    type: "object",
    additionalProperties: false,
    required: [first, second],
    properties: { [first]: stringField, [second]: stringField },
  },
});
const outcomesSchema = textPairs("What the agent must achieve for the user, each a short label and how to tell it happened", [
  "label",
  "description",
]);
const PERSONA_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["persona", "user_context", "expected_outcomes"],
  properties: {
    persona: {
      type: "object",
      additionalProperties: false,
      required: ["type", "description", "instructions"],
      properties: {
        type: { type: "string", description: "A short name for this kind of user, e.g. 'impatient returning customer'" },
        description: { type: "string", description: "Who the user is and what they want" },
        instructions: { type: "string", description: "How to behave as this user: tone, what to ask, when to push back, when to stop" },
      },
    },
    user_context: textPairs("Facts the user knew (order numbers, names, dates, preferences), as key/value pairs", ["key", "value"]),
    expected_outcomes: outcomesSchema,
  },
};
const OUTCOMES_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["expected_outcomes"],
  properties: { expected_outcomes: outcomesSchema },
};

/** The conversation as the judge reads it: one line per message, tool calls and results included. */
export function renderForJudge(messages: TranscriptMessage[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role === "system") continue;
    if (m.role === "tool") lines.push(`TOOL RESULT: ${m.content ?? ""}`);
    else if (m.role === "user") lines.push(`USER: ${m.content ?? ""}`);
    else {
      if (m.content) lines.push(`AGENT: ${m.content}`);
      for (const c of m.tool_calls ?? []) lines.push(`AGENT CALLS TOOL ${c.name}(${c.arguments})`);
    }
  }
  return lines.join("\n");
}

const PERSONA_PROMPT =
  "You turn a real conversation between a user and an AI agent into a reusable test case. A simulated user will replay " +
  "this user against the next version of the agent. From the USER lines only, describe the user: who they are and what " +
  "they wanted (persona type and description), how they behaved and how to play them (instructions: tone, what they ask " +
  "first and later, what they push back on, when they stop), and the facts they knew (user_context). From how the " +
  "conversation ended, write the outcomes a good agent must reach (expected_outcomes). Do not copy the agent's wording.";
const OUTCOMES_PROMPT =
  "You turn a real question and an AI agent's answer into a test case. Write the outcomes a correct answer must reach " +
  "(expected_outcomes): short labels with how to tell each happened. Base them on what the user asked and on the parts of " +
  "the answer that were right; leave out its wording.";

/** Drafts a case from a conversation (see the module comment). */
export async function draftCase(input: DraftInput, opts: DraftOptions = {}): Promise<CaseDraft> {
  const users = input.messages.filter((m) => m.role === "user" && (m.content ?? "").trim() !== "");
  const kind: DraftKind = opts.kind ?? (users.length > 1 ? "persona" : "single");
  const opening = users[0]?.content?.trim() ?? null;
  const notes: string[] = [];
  const drafted: string[] = [];
  if (!opening) notes.push("The conversation has no user message: write the opening message yourself.");

  const tools = calledTools(input.messages);
  const testCase: DraftedCase = {
    name: opening ? firstLine(opening, NAME_CHARS) : "Case from a conversation",
    description: `Drafted from ${input.origin}.`,
    status: "active",
    tags: ["from-traffic"],
    initial_message: opening,
    persona: null,
    user_context: null,
    max_turns: kind === "persona" ? Math.max(users.length, 1) + 2 : null,
    expected_outcomes: null,
    expected_tool_calls:
      tools.length > 0
        ? tools.map((t) => ({ tool: t.name, expected_params: opts.keepToolParams ? t.arguments : null, forbidden: undefined }))
        : null,
  };
  if (input.source.type === "case_result") testCase.tags = ["from-run"];

  const wantsJudge = kind === "persona" || opts.draftOutcomes === true;
  if (!wantsJudge) return { kind, test_case: testCase, source: input.source, drafted, notes };
  const left = kind === "persona" ? "the persona, user context and expected outcomes" : "the expected outcomes";
  if (!input.judge) {
    notes.push(`Not drafted: ${left}, because ${input.noJudgeReason ?? "the suite has no judge model"}. Write them yourself.`);
    return { kind, test_case: testCase, source: input.source, drafted, notes };
  }
  try {
    const transcript = renderForJudge(input.messages);
    const answer = await input.judge.json({
      purpose: "judge",
      schemaName: kind === "persona" ? "case_draft_persona" : "case_draft_outcomes",
      schema: kind === "persona" ? PERSONA_SCHEMA : OUTCOMES_SCHEMA,
      messages: [
        { role: "system", content: kind === "persona" ? PERSONA_PROMPT : OUTCOMES_PROMPT },
        { role: "user", content: `The conversation:\n\n${transcript}` },
      ],
      timeoutMs: 60_000,
    });
    const raw: unknown = JSON.parse(answer.raw);
    const outcomes = (list: { label: string; description: string }[]) =>
      list.length > 0 ? Object.fromEntries(list.map((o) => [o.label, o.description])) : null;
    if (kind === "persona") {
      const d = personaDraft.parse(raw);
      testCase.persona = d.persona;
      testCase.user_context = d.user_context.length > 0 ? Object.fromEntries(d.user_context.map((e) => [e.key, e.value])) : null;
      testCase.expected_outcomes = outcomes(d.expected_outcomes);
      drafted.push(
        "persona",
        ...(testCase.user_context ? ["user_context"] : []),
        ...(testCase.expected_outcomes ? ["expected_outcomes"] : []),
      );
    } else {
      testCase.expected_outcomes = outcomes(outcomesDraft.parse(raw).expected_outcomes);
      if (testCase.expected_outcomes) drafted.push("expected_outcomes");
    }
  } catch (err) {
    testCase.persona = null;
    testCase.user_context = null;
    testCase.expected_outcomes = null;
    drafted.length = 0;
    const why = err instanceof LlmError ? "the judge model did not answer" : "the judge model's answer could not be used";
    notes.push(`Not drafted: ${left}, because ${why} (${(err as Error).message.slice(0, 200)}).`);
  }
  return { kind, test_case: testCase, source: input.source, drafted, notes };
}
