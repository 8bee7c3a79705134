/** Transcript rendering for judge prompts, and small transcript helpers (repetition detection). */
import type { TranscriptMessage } from "./types";

/** Per-message cap in judge prompts (the stored transcript is not changed). */
export const MAX_RENDERED_MESSAGE_CHARS = 12_000;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [${text.length - max} more characters truncated]` : text;
}

function label(message: TranscriptMessage, toolNames: Map<string, string>): string {
  switch (message.role) {
    case "system":
      return "SYSTEM (the agent's instructions)";
    case "user":
      return "USER";
    case "assistant":
      return "AGENT";
    case "tool": {
      const name = message.name ?? (message.tool_call_id ? toolNames.get(message.tool_call_id) : undefined) ?? "unknown tool";
      return `TOOL RESULT for ${name}${message.tool_call_id ? ` (call ${message.tool_call_id})` : ""}`;
    }
  }
}

/**
 * The transcript as the judge sees it: one numbered turn per message, where turn N is
 * `transcript[N - 1]` (so evidence turns point straight at stored messages). Tool calls are shown
 * inline under the agent turn that made them, tool results as their own turns.
 */
export function renderTranscript(transcript: TranscriptMessage[], maxChars = MAX_RENDERED_MESSAGE_CHARS): string {
  const toolNames = new Map<string, string>();
  const lines: string[] = [];
  transcript.forEach((message, i) => {
    for (const call of message.tool_calls ?? []) toolNames.set(call.id, call.name);
    const parts = [`[${i + 1}] ${label(message, toolNames)}:`];
    const content = message.content ?? "";
    if (content.trim() !== "") parts.push(clip(content, maxChars));
    else if (!message.tool_calls?.length) parts.push("(empty)");
    for (const call of message.tool_calls ?? []) {
      parts.push(`  → TOOL CALL ${call.name}(${clip(call.arguments || "{}", maxChars)}) [call ${call.id}]`);
    }
    lines.push(parts.join("\n"));
  });
  return lines.length > 0 ? lines.join("\n\n") : "(the conversation is empty)";
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
