/**
 * Reading what the demo model is shown. The demo model answers from the prompts Assay sends (a
 * judge prompt, a check prompt, a simulated user's prompt), never from hidden state, so it needs
 * to find the conversation, its turn numbers and the named sections in that text.
 *
 * Turn numbers are read from the prompt, never counted here: the judge's transcript rendering
 * (lib/evaluation/transcript.ts) decides what one turn is, and evidence turns must point where the
 * case view links them. A turn marker is `[N]`, `[Turn N]` or `Turn N` at the start of a line; a
 * speaker label (SYSTEM, USER, AGENT/ASSISTANT, TOOL RESULT … up to its colon) starts a message,
 * right after a marker or on a line of its own, so both one numbered turn per message and one
 * numbered turn per user message + reply are read the same way.
 */

export type Speaker = "system" | "user" | "agent" | "tool";

/** One message of a rendered conversation, with the turn number the prompt gave it (null before any). */
export type PromptMessage = { turn: number | null; speaker: Speaker; text: string };

const TURN_MARKER = /^\s*(?:#{1,6}\s*)?(?:\[\s*(?:turn\s+)?(\d+)\s*\]|turn\s+(\d+)\b)\s*[:.)\-–—]?\s*/i;
const SPEAKER_LABEL = /^(system|user|agent|assistant|tool result)\b[^:\n]*:[ \t]*/i;

function speakerOf(label: string): Speaker {
  const l = label.toLowerCase();
  if (l === "system") return "system";
  if (l === "user") return "user";
  if (l === "tool result") return "tool";
  return "agent";
}

/** The messages of a rendered conversation, in order, each with its turn number. */
export function parseConversation(text: string): PromptMessage[] {
  const messages: PromptMessage[] = [];
  let turn: number | null = null;
  let current: PromptMessage | null = null;
  for (const rawLine of text.split("\n")) {
    let line = rawLine;
    const marker = TURN_MARKER.exec(line);
    if (marker) {
      turn = Number(marker[1] ?? marker[2]);
      line = line.slice(marker[0].length);
    }
    const label = SPEAKER_LABEL.exec(line);
    if (label) {
      current = { turn, speaker: speakerOf(label[1]!), text: line.slice(label[0].length) };
      messages.push(current);
    } else if (current) {
      current.text = current.text === "" ? line : `${current.text}\n${line}`;
    }
  }
  for (const m of messages) m.text = m.text.trim();
  return messages;
}

/**
 * The text under a `## title` heading (case-insensitive, the title as a prefix), up to the next
 * heading in `stops` (or the end). Null when the heading is absent.
 */
export function section(text: string, title: string, stops: readonly string[] = []): string | null {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.toLowerCase().startsWith(`## ${title.toLowerCase()}`));
  if (start < 0) return null;
  const heading = lines[start]!;
  const rest = heading.slice(3 + title.length).replace(/^[:\s]+/, "");
  const body: string[] = rest ? [rest] : [];
  // A stop heading ends the section only at its last occurrence: a message quoted in the section
  // may itself contain a markdown heading.
  let end = lines.length;
  if (stops.length > 0) {
    for (let i = lines.length - 1; i > start; i--) {
      if (stops.some((s) => lines[i]!.toLowerCase().startsWith(`## ${s.toLowerCase()}`))) {
        end = i;
        break;
      }
    }
  }
  body.push(...lines.slice(start + 1, end));
  return body.join("\n").trim();
}

/** Lower-cased words of 3+ letters or digits (for overlap between a requirement and a reply). */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
}

/** A short quotation of a message for reasoning text. */
export function quote(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return `"${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}"`;
}
