/**
 * Small pieces every converter needs: reading loosely typed JSON, chat messages in the shapes the
 * tools write (OpenAI content parts included), a case name from text, tags Assay accepts, and the
 * report lines. Pure; no converter-specific rule lives here.
 */
import { ValidationError } from "@/lib/errors";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import { MAX_SAFETY_CAP } from "@/lib/conversation/types";
import { CASE_FIELDS } from "@/lib/test-cases/schemas";
import { checkDocumentText, parseJsonText } from "@/lib/test-cases/document";
import type { ConvertedItem, DroppedField, ForeignFormat, ImportItemReport } from "./types";

export type Json = Record<string, unknown>;

export function asRecord(v: unknown): Json | null {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null;
}

export const isNonEmptyString = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

/** Any value as text for a message or an answer: strings as they are, the rest as JSON. */
export function asText(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

export type ChatMessage = { role: string; content: string };

/**
 * A message's text: a string, or OpenAI content parts (`[{type: "text", text}]`) joined; parts
 * that are not text (images, audio, files) are reported through `drop` and left out.
 */
export function messageText(content: unknown, where: string, drop: (d: DroppedField) => void): string {
  if (typeof content === "string") return content;
  if (content == null) return "";
  if (Array.isArray(content)) {
    const texts: string[] = [];
    content.forEach((part, k) => {
      const p = asRecord(part);
      if (p && (p.type === "text" || p.type === "input_text") && typeof p.text === "string") texts.push(p.text);
      else if (typeof part === "string") texts.push(part);
      else
        drop({
          field: `${where}[${k}]`,
          reason: `${String(p?.type ?? "this")} parts are not text; Assay cases carry files as files, not as message parts`,
        });
    });
    return texts.join("\n");
  }
  return asText(content);
}

/** Chat messages from an array of `{role, content}` (or `{messages: [...]}`); null when the value is not one. */
export function chatMessages(value: unknown, where: string, drop: (d: DroppedField) => void): ChatMessage[] | null {
  const list = Array.isArray(value) ? value : Array.isArray(asRecord(value)?.messages) ? (asRecord(value)!.messages as unknown[]) : null;
  if (!list || list.length === 0) return null;
  if (!list.every((m) => typeof asRecord(m)?.role === "string")) return null;
  const prefix = messagesPath(value, where);
  return list.map((m, k) => {
    const r = asRecord(m)!;
    return { role: String(r.role), content: messageText(r.content, `${prefix}[${k}].content`, drop) };
  });
}

/** Where a value's chat messages are: the value itself (a list) or its `messages`. */
export function messagesPath(value: unknown, where: string): string {
  return Array.isArray(value) ? where : `${where}.messages`;
}

/**
 * A conversation as a single question: the last user message asks it, the turns before it are
 * the context (`user_context.conversation_history`), a system (or developer) message goes to
 * `user_context.system_prompt` — Assay's agent has its own system prompt, so it is kept for
 * reference, not sent. Null when there is no user message.
 */
export function lastUserQuestion(messages: ChatMessage[], where: string, mapped: string[], dropped?: DroppedField[]) {
  const lastUser = messages.map((m) => m.role).lastIndexOf("user");
  if (lastUser < 0) return null;
  const system = messages.filter((m) => m.role === "system" || m.role === "developer").map((m) => m.content);
  const history = messages.slice(0, lastUser).filter((m) => m.role !== "system" && m.role !== "developer");
  const context: Json = {};
  mapped.push(`${where}[${lastUser}] (the last user message) → initial_message`);
  if (history.length > 0) {
    context.conversation_history = history;
    mapped.push(`${where} (the ${history.length} earlier turns) → user_context.conversation_history`);
  }
  if (system.length > 0) {
    context.system_prompt = system.join("\n\n");
    mapped.push(`${where} (system message) → user_context.system_prompt (for reference: the suite's agent has its own system prompt)`);
  }
  const after = messages.slice(lastUser + 1);
  if (after.length > 0) {
    dropped?.push({
      field: `${where}[${lastUser + 1}…]`,
      reason: `${after.length} message(s) after the last user message are recorded answers; Assay asks the agent on every run`,
    });
  }
  return { question: messages[lastUser]!.content, context, after };
}

/** The first non-blank line of a text, cut to `max` characters with an ellipsis. */
export function snippet(text: string, max: number): string {
  const line =
    text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? "";
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

/**
 * A case name: the item's own (cut to TEXT_LIMITS.name, reported), else the first line of the
 * fallback text (a question), cut to about 80 characters — a name to recognise, not the question.
 */
export function caseName(candidates: unknown[], fallback: string, dropped: DroppedField[], field = "name"): string {
  const found = candidates.find(isNonEmptyString);
  if (found === undefined) return snippet(fallback, 80) || "Imported case";
  const name = snippet(found, TEXT_LIMITS.name);
  if (name !== found.trim()) {
    const reason = found.trim().includes("\n")
      ? `only its first line is the name (cut to ${TEXT_LIMITS.name} characters, Assay's limit for names)`
      : `cut to ${TEXT_LIMITS.name} characters (Assay's limit for names)`;
    dropped.push({ field, reason });
  }
  return name;
}

const MAX_TAGS = 50;

/**
 * Values that can be Assay tags: strings and numbers, commas replaced by spaces, cut to
 * TEXT_LIMITS.tag characters, at most 50. What had to change or go is reported against `field`.
 */
export function toTags(values: unknown[], dropped?: DroppedField[], field = "tags"): string[] {
  const usable = values.filter((v): v is string | number => typeof v === "string" || typeof v === "number");
  if (usable.length < values.length)
    dropped?.push({ field, reason: `${values.length - usable.length} value(s) are not text and cannot be tags` });
  const cleaned = usable.map((v) => String(v).replace(/,/g, " ").trim());
  if (cleaned.some((t) => t.length > TEXT_LIMITS.tag))
    dropped?.push({ field, reason: `tags longer than ${TEXT_LIMITS.tag} characters were cut` });
  const tags = [...new Set(cleaned.map((t) => t.slice(0, TEXT_LIMITS.tag).trim()).filter(Boolean))];
  if (tags.length > MAX_TAGS) dropped?.push({ field, reason: `only the first ${MAX_TAGS} tags are kept (Assay's limit)` });
  return tags.slice(0, MAX_TAGS);
}

/**
 * An item's free-form metadata split the way the tools use it: `name` (a string) names the case,
 * `tags` (a list, or one comma-separated string) become tags, and everything else is kept for the
 * agent to see in `user_context.metadata`. With `roundTrip` (formats Assay exports to), `assay`
 * is set apart: an Assay export's round-trip block.
 */
export function splitMetadata(value: unknown, where: string, mapped: string[], dropped: DroppedField[], roundTrip = false) {
  const metadata = asRecord(value) ?? {};
  const name = isNonEmptyString(metadata.name) ? metadata.name : null;
  const rawTags = typeof metadata.tags === "string" ? metadata.tags.split(",") : Array.isArray(metadata.tags) ? metadata.tags : null;
  const tags = rawTags ? toTags(rawTags, dropped, `${where}.tags`) : [];
  if (tags.length > 0) mapped.push(`${where}.tags → tags`);
  const assay = roundTrip ? asRecord(metadata.assay) : null;
  const used = new Set([...(assay ? ["assay"] : []), ...(name ? ["name"] : []), ...(rawTags ? ["tags"] : [])]);
  const rest = Object.fromEntries(Object.entries(metadata).filter(([k]) => !used.has(k)));
  if (Object.keys(rest).length > 0) mapped.push(`${where} (${Object.keys(rest).join(", ")}) → user_context.metadata`);
  return { name, tags, rest: Object.keys(rest).length > 0 ? rest : null, assay };
}

/**
 * Turns for a case whose simulated user sends `userTurns` messages: one reply to each plus two to
 * finish, at least 3, at most MAX_SAFETY_CAP (reported when the script is longer than that allows).
 */
export function scriptedMaxTurns(userTurns: number, dropped: DroppedField[], field: string): number {
  const turns = Math.max(3, userTurns + 2);
  if (turns <= MAX_SAFETY_CAP) return turns;
  dropped.push({ field, reason: `${userTurns} user messages exceed Assay's cap of ${MAX_SAFETY_CAP} turns; the conversation stops there` });
  return MAX_SAFETY_CAP;
}

/**
 * Items of a document: a JSON array, an object holding the list under one of `keys`, one item
 * object on its own, or JSON Lines (one item per line; a line that is not JSON is that item's
 * error, the other lines still convert).
 */
export function readItems(text: string, keys: string[], what: string): { items: unknown[]; jsonl: boolean } {
  const expected = `Expected ${what}: a JSON array${keys.length ? `, an object with ${keys.map((k) => `\`${k}\``).join(" or ")}` : ""}, or JSON Lines`;
  checkDocumentText(text, expected);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const lines = text.split("\n").filter((l) => l.trim() !== "");
    // JSON Lines: several lines, each an object (the first readable, or all starting like one).
    if (lines.length > 1 && (isJson(lines[0]!) || lines.every((l) => l.trim().startsWith("{")))) {
      return { items: jsonLines(text), jsonl: true };
    }
    value = parseJsonText(text); // throws the syntax error with its line and column
  }
  if (Array.isArray(value)) return { items: value, jsonl: false };
  const record = asRecord(value);
  const lists = record ? keys.filter((key) => Array.isArray(record[key])) : [];
  if (lists.length > 0) return { items: lists.flatMap((key) => record![key] as unknown[]), jsonl: false };
  if (record && Object.keys(record).length > 0) return { items: [record], jsonl: false };
  throw new ValidationError(expected, [{ path: "", message: expected }]);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The non-blank lines of JSON Lines as values; a line that is not JSON becomes a LineError (its item's error). */
export function jsonLines(text: string): unknown[] {
  return numberedJsonLines(text).map((l) => l.value);
}

/** The non-blank lines of JSON Lines with their 1-based line numbers in the file. */
export function numberedJsonLines(text: string): { line: number; value: unknown }[] {
  const items: { line: number; value: unknown }[] = [];
  text.split("\n").forEach((line, k) => {
    if (line.trim() === "") return;
    try {
      items.push({ line: k + 1, value: JSON.parse(line) });
    } catch (err) {
      items.push({ line: k + 1, value: new LineError(`Line ${k + 1} is not valid JSON: ${(err as Error).message}`, k + 1) });
    }
  });
  return items;
}

export class LineError {
  constructor(
    readonly message: string,
    readonly line: number,
  ) {}
}

/** A report and a place to collect into, for one item. */
export function startItem(index: number, label: string): ImportItemReport {
  return { index, label, mapped: [], dropped: [] };
}

export function failedItem(report: ImportItemReport, error: string, format: ForeignFormat, itemId: string | null = null): ConvertedItem {
  return { report, case: null, error, source: { type: "import", format, item_id: itemId, trace_id: null } };
}

/** An id as text (Inspect ids may be numbers), or null. */
export function idOf(v: unknown): string | null {
  if (typeof v === "string" && v.trim() !== "") return v.slice(0, 500);
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}

/** Text for ground truth and judge answers: strings as they are, anything else as JSON; null when empty. */
export function answerText(v: unknown): string | null {
  if (v == null) return null;
  const text = asText(v);
  return text.trim() === "" ? null : text;
}

/** Fields the item has that are not in `known`, reported as dropped with one reason. */
export function dropUnknown(item: Json, known: readonly string[], dropped: DroppedField[], reason: string) {
  for (const key of Object.keys(item)) if (!known.includes(key)) dropped.push({ field: key, reason });
}

/**
 * The case fields an export keeps in the item's free-form metadata when the format has no place
 * of its own for them (`metadata.assay` in Langfuse, `additional_metadata.assay` in DeepEval), so
 * Assay → format → Assay gives the same case. Files cannot travel in a JSON item: they are named
 * in the export's `not_exported`.
 */
export const ROUND_TRIP_FIELDS = CASE_FIELDS.filter((field) => field !== "name" && field !== "files");

/**
 * The round-trip block of a case: every ROUND_TRIP_FIELDS value that is set (nulls, empty lists
 * and defaults left out — but `evaluations: []` stays: it means "no metrics", null "the suite's").
 */
export function assayBlock(doc: Json): Json {
  const block: Json = {};
  for (const key of ROUND_TRIP_FIELDS) {
    const v = doc[key];
    if (v == null || (Array.isArray(v) && v.length === 0 && key !== "evaluations")) continue;
    if ((key === "difficulty" && v === "normal") || (key === "mode" && v === "all") || (key === "status" && v === "active")) continue;
    block[key] = v;
  }
  return block;
}

/** Applies an item's round-trip block over the converted case (its values win: they are Assay's own). */
export function applyAssayBlock(testCase: Json, block: Json | null, where: string, mapped: string[]) {
  if (!block) return;
  const keys = ROUND_TRIP_FIELDS.filter((k) => k in block);
  if (keys.length === 0) return;
  for (const key of keys) testCase[key] = block[key];
  mapped.push(`${where} → ${keys.join(", ")} (written by an Assay export)`);
}

/**
 * Why a converted case cannot be imported, or null: it must have something to send (an opening
 * message or a persona), unless the Assay export it came from (its round-trip `block`) kept a
 * draft or archived case that has neither.
 */
export function missingInput(testCase: Json, block: Json | null, what: string): string | null {
  if (testCase.initial_message || testCase.persona) return null;
  return block?.status === "draft" || block?.status === "archived" ? null : what;
}

/** Whether the case (a document from an export) has uploaded or URL files, which JSON formats cannot carry. */
export function filesNote(doc: { files?: unknown[] | null }): string | null {
  const n = doc.files?.length ?? 0;
  return n > 0
    ? `its ${n} file${n === 1 ? "" : "s"} cannot travel in this format; attach ${n === 1 ? "it" : "them"} again after importing`
    : null;
}
