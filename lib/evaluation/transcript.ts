/**
 * What a "turn" is, and the transcript as the judge reads it. Turn N is the N-th user message and
 * everything the agent did in reply (its messages, the tool calls it made and the tool results it
 * received); the system prompt is the agent's instructions, not a turn. The judge prompt, the
 * judge's evidence turns, the case view's transcript and a result's `turns` count all use this
 * one meaning. Also small transcript helpers (repetition detection).
 */
import type { OutcomeResult, TranscriptMessage } from "./types";

/** Per-message cap in judge prompts (the stored transcript is not changed). */
export const MAX_RENDERED_MESSAGE_CHARS = 12_000;

/**
 * How an outcome result's `evidence_turns` count. Results stored before it was recorded counted
 * transcript messages (turn N was `transcript[N - 1]`, the system prompt included).
 */
export const TURN_NUMBERING = "exchange";

/** A message with its 0-based position in the stored transcript. */
export type PlacedMessage = { message: TranscriptMessage; index: number };

/** One turn: the N-th user message (absent only when the agent spoke first) and the agent's reply. */
export type TranscriptTurn = { number: number; messages: PlacedMessage[] };

/**
 * The transcript cut into the system prompt and numbered turns. A user message opens a turn; the
 * system messages before anything else are the system prompt; an agent that speaks before the
 * first user message does so in turn 1.
 */
export function splitTurns(transcript: readonly TranscriptMessage[]): { system: PlacedMessage[]; turns: TranscriptTurn[] } {
  const system: PlacedMessage[] = [];
  const turns: TranscriptTurn[] = [];
  let turnHasUser = false;
  transcript.forEach((message, index) => {
    if (turns.length === 0 && message.role === "system") {
      system.push({ message, index });
      return;
    }
    if (turns.length === 0 || (message.role === "user" && turnHasUser)) {
      turns.push({ number: turns.length + 1, messages: [] });
      turnHasUser = false;
    }
    if (message.role === "user") turnHasUser = true;
    turns[turns.length - 1]!.messages.push({ message, index });
  });
  return { system, turns };
}

/** How many turns the transcript has (the number the judge may cite). */
export function countTurns(transcript: readonly TranscriptMessage[]): number {
  return splitTurns(transcript).turns.length;
}

/**
 * The turns an outcome's evidence cites, in today's numbering. A result judged before turns
 * counted exchanges cites 1-based message positions: each is mapped to the turn that holds the
 * message, or to the system prompt.
 */
export function citedTurns(
  result: Pick<OutcomeResult, "evidence_turns" | "turn_numbering">,
  transcript: readonly TranscriptMessage[],
): { turns: number[]; systemPrompt: boolean } {
  const { system, turns } = splitTurns(transcript);
  if (result.turn_numbering === TURN_NUMBERING) {
    return { turns: uniqueSorted(result.evidence_turns.filter((t) => t >= 1 && t <= turns.length)), systemPrompt: false };
  }
  const turnOfIndex = new Map<number, number>();
  for (const turn of turns) for (const m of turn.messages) turnOfIndex.set(m.index, turn.number);
  const systemIndexes = new Set(system.map((m) => m.index));
  const mapped: number[] = [];
  let systemPrompt = false;
  for (const position of result.evidence_turns) {
    if (systemIndexes.has(position - 1)) systemPrompt = true;
    const turn = turnOfIndex.get(position - 1);
    if (turn !== undefined) mapped.push(turn);
  }
  return { turns: uniqueSorted(mapped), systemPrompt };
}

function uniqueSorted(numbers: number[]): number[] {
  return [...new Set(numbers)].sort((a, b) => a - b);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [${text.length - max} more characters truncated]` : text;
}

/** Who a message in a turn is from, as the judge reads it ("user", "agent", "tool result for …"). */
function speaker(message: TranscriptMessage, toolNames: Map<string, string>): string {
  switch (message.role) {
    case "system":
      return "system";
    case "user":
      return "user";
    case "assistant":
      return "agent";
    case "tool": {
      const name = message.name ?? (message.tool_call_id ? toolNames.get(message.tool_call_id) : undefined) ?? "unknown tool";
      return `tool result for ${name}${message.tool_call_id ? ` (call ${message.tool_call_id})` : ""}`;
    }
  }
}

function renderMessage(header: string, message: TranscriptMessage, maxChars: number): string {
  const parts = [header];
  const content = message.content ?? "";
  if (content.trim() !== "") parts.push(clip(content, maxChars));
  else if (!message.tool_calls?.length) parts.push("(empty)");
  for (const call of message.tool_calls ?? []) {
    parts.push(`  → TOOL CALL ${call.name}(${clip(call.arguments || "{}", maxChars)}) [call ${call.id}]`);
  }
  return parts.join("\n");
}

/**
 * The transcript as the judge sees it: the system prompt first (marked as not a turn), then every
 * message under its turn ("Turn 2 — user:", "Turn 2 — agent:"), so evidence turns are the turns
 * the case view shows. Tool calls are shown inline under the agent message that made them, tool
 * results as messages of the same turn.
 */
export function renderTranscript(transcript: TranscriptMessage[], maxChars = MAX_RENDERED_MESSAGE_CHARS): string {
  const toolNames = new Map<string, string>();
  for (const message of transcript) for (const call of message.tool_calls ?? []) toolNames.set(call.id, call.name);
  const { system, turns } = splitTurns(transcript);
  const blocks = system.map(({ message }) => renderMessage("System prompt (the agent's instructions; not a turn):", message, maxChars));
  for (const turn of turns) {
    for (const { message } of turn.messages) {
      blocks.push(renderMessage(`Turn ${turn.number} — ${speaker(message, toolNames)}:`, message, maxChars));
    }
  }
  return blocks.length > 0 ? blocks.join("\n\n") : "(the conversation is empty)";
}

export function userMessages(transcript: TranscriptMessage[]): string[] {
  return transcript.filter((m) => m.role === "user" && m.content).map((m) => m.content ?? "");
}

export function lastUserMessage(transcript: TranscriptMessage[]): string | null {
  const users = userMessages(transcript);
  return users.length > 0 ? (users[users.length - 1] ?? null) : null;
}

/** Tool results in the transcript as "name: result" blocks (context for groundedness). */
export function toolResultsText(transcript: TranscriptMessage[]): string | null {
  const toolNames = new Map<string, string>();
  const blocks: string[] = [];
  for (const m of transcript) {
    for (const call of m.tool_calls ?? []) toolNames.set(call.id, call.name);
    if (m.role === "tool" && m.content) {
      const name = m.name ?? (m.tool_call_id ? toolNames.get(m.tool_call_id) : undefined) ?? "tool";
      blocks.push(`${name}: ${m.content}`);
    }
  }
  return blocks.length > 0 ? blocks.join("\n\n") : null;
}

/** Lower-case, NFKC, punctuation and extra whitespace removed: "OK!!" and "ok" are the same message. */
export function normaliseMessage(text: string): string {
  const folded = text.normalize("NFKC").toLowerCase();
  const words = folded
    .replace(/[^\p{L}\p{N}\s]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return words !== "" ? words : folded.replace(/\s+/g, " ").trim();
}

/**
 * True when the simulated user's latest message repeats (after normalisation) one of the two
 * messages before it — the simulator is looping and the conversation should end.
 */
export function isRepeating(messages: string[]): boolean {
  if (messages.length < 2) return false;
  const last = messages[messages.length - 1];
  if (last === undefined) return false;
  const latest = normaliseMessage(last);
  if (latest === "") return false;
  return messages.slice(Math.max(0, messages.length - 3), messages.length - 1).some((m) => normaliseMessage(m) === latest);
}
