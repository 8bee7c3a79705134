import { z } from "zod";
import type { Persona } from "@/lib/test-cases/schemas";
import type { TranscriptMessage } from "./types";

export const SIMULATOR_SCHEMA_NAME = "simulator_turn";

/** Structured output of one simulated-user turn (strict: every key required). */
export const SIMULATOR_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    message: { type: "string", description: "The user's next message to the assistant, in the user's voice." },
    should_end: { type: "boolean", description: "true when the user would end the conversation now instead of writing." },
    end_reason: { type: ["string", "null"], description: "Why the conversation ends (when should_end is true), else null." },
  },
  required: ["message", "should_end", "end_reason"],
  additionalProperties: false,
};

const simulatorTurnSchema = z.object({
  message: z.string(),
  should_end: z.boolean(),
  end_reason: z.string().nullish(),
});
export type SimulatorTurn = { message: string; should_end: boolean; end_reason: string | null };

/** Parses the simulator's raw JSON; null when it is not a valid turn (fail closed). */
export function parseSimulatorTurn(raw: string): SimulatorTurn | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = simulatorTurnSchema.safeParse(value);
  if (!parsed.success) return null;
  return { message: parsed.data.message, should_end: parsed.data.should_end, end_reason: parsed.data.end_reason ?? null };
}

/**
 * The simulated user's system prompt: persona, instructions and the JSON of user_context.
 * It never contains the test case's expected outcomes (the simulator must not steer toward them).
 */
export function simulatorSystemPrompt(persona: Persona, userContext: Record<string, unknown> | null): string {
  return [
    "You are role-playing a user who is chatting with an AI assistant, so that the assistant can be tested.",
    "Stay in character as the user described below. Never act as the assistant, never answer your own questions,",
    "and never reveal that you are simulated or that this is a test.",
    "",
    `## Persona: ${persona.type}`,
    persona.description,
    "",
    "## How this user behaves",
    persona.instructions,
    "",
    "## What this user knows (JSON)",
    JSON.stringify(userContext ?? {}, null, 2),
    "",
    "## Rules",
    "- Write only the user's next message: natural, in the user's voice, as long as a real chat message would be.",
    "- Use what the user knows when it is relevant; do not invent facts that contradict it.",
    "- Do not repeat a message you already sent; if you are stuck, end the conversation instead.",
    "- Set should_end to true (message may then be empty) when the user's goal is reached, the assistant clearly",
    "  cannot help, or a real user would stop here; give end_reason. Otherwise should_end is false and end_reason null.",
    '- Answer with JSON only: {"message": string, "should_end": boolean, "end_reason": string | null}.',
  ].join("\n");
}

/** The conversation as the simulated user saw it: user messages and the assistant's visible replies. */
export function renderTranscriptForSimulator(transcript: TranscriptMessage[]): string {
  const lines: string[] = [];
  let turn = 0;
  for (const m of transcript) {
    if (m.role === "user") {
      turn++;
      lines.push(`[Turn ${turn}] User: ${m.content ?? ""}`);
    } else if (m.role === "assistant" && m.content) {
      lines.push(`[Turn ${turn}] Assistant: ${m.content}`);
    }
  }
  return lines.join("\n\n");
}

export type SimulatorPromptOptions = {
  persona: Persona;
  userContext: Record<string, unknown> | null;
  transcript: TranscriptMessage[];
  /** The simulator's previous answer was empty or invalid: ask again, differently. */
  retry?: boolean;
};

export function buildSimulatorMessages(opts: SimulatorPromptOptions): { role: "system" | "user"; content: string }[] {
  const rendered = renderTranscriptForSimulator(opts.transcript);
  const task = rendered
    ? `The conversation so far:\n\n${rendered}\n\nWrite the user's next message.`
    : "The conversation has not started yet. Write the user's first message to the assistant (should_end must be false).";
  const nudge = opts.retry
    ? "\n\nYour previous answer was empty or not valid JSON. Write a non-empty message, or set should_end to true."
    : "";
  return [
    { role: "system", content: simulatorSystemPrompt(opts.persona, opts.userContext) },
    { role: "user", content: task + nudge },
  ];
}

/** Lower-cased words only, for "the user repeats itself" detection. */
export function normaliseMessage(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** True when `message` equals (normalised) one of the user's last two messages. */
export function isRepetition(message: string, transcript: TranscriptMessage[]): boolean {
  const key = normaliseMessage(message);
  const previous = transcript.filter((m) => m.role === "user").slice(-2);
  return previous.some((m) => normaliseMessage(m.content ?? "") === key);
}
