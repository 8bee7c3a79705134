import { stripInvalidText } from "@/lib/validation/text";
import type { CaseOutcome } from "./execution-types";

/**
 * Caps every text field stored from a run (transcript messages, LLM call request/response logs,
 * check details) at the execution model's 20,000 characters, with a visible marker, so one runaway agent or
 * model answer cannot bloat the database or the pages that show it. `mapStrings` is the
 * composable part: `storedOutcome` composes it with `stripInvalidText` (NUL characters and lone
 * surrogates removed: PostgreSQL refuses them in text and jsonb, and a refused write would leave
 * the case `running`), and that is what the executor persists.
 */
export const MAX_STORED_CHARS = 20_000;

/** `text` cut to `max` characters plus a marker saying how many were dropped; unchanged when short enough. */
export function truncateText(text: string, max: number = MAX_STORED_CHARS): string {
  if (text.length <= max) return text;
  // Never split a surrogate pair: half of one is not valid text.
  const cut = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, cut)}… [truncated ${(text.length - cut).toLocaleString("en-US")} characters]`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Applies `fn` to every string in a JSON-like value (arrays and plain objects, up to 64 levels
 * deep) and to every object key; other values are kept.
 */
export function mapStrings<T>(value: T, fn: (s: string) => string): T {
  return walk(value, fn, 0) as T;
}

function walk(value: unknown, fn: (s: string) => string, depth: number): unknown {
  if (typeof value === "string") return fn(value);
  if (value === null || typeof value !== "object" || depth > 64) return value;
  if (Array.isArray(value)) return value.map((v) => walk(v, fn, depth + 1));
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value; // Dates, Buffers…: serialised as they are
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[fn(k)] = walk(v, fn, depth + 1);
  return out;
}

/** Every string in `value` cut by truncateText. */
export function truncateStrings<T>(value: T, max: number = MAX_STORED_CHARS): T {
  return mapStrings(value, (s) => truncateText(s, max));
}

/** Text as it is stored from a run: NUL characters and lone surrogates removed, then capped. */
export function storedText(text: string, max: number = MAX_STORED_CHARS): string {
  return truncateText(stripInvalidText(text), max);
}

/**
 * The outcome as the executor persists it: every text field cleaned by `storedText` (invalid
 * characters removed, then truncated). `actualResponse` keeps its own column rule (cut at
 * MAX_RESPONSE_CHARS with `responseTruncated` set), so it only loses its invalid characters.
 */
export function storedOutcome(o: CaseOutcome, max: number = MAX_STORED_CHARS): CaseOutcome {
  const cleaned = mapOutcomeText(o, (s) => storedText(s, max));
  return { ...cleaned, actualResponse: o.actualResponse === null ? null : stripInvalidText(o.actualResponse) };
}

/**
 * The outcome with every text field truncated (invalid characters kept). `actualResponse` keeps
 * its own column rule (cut at MAX_RESPONSE_CHARS with `responseTruncated` set) and is left alone here.
 */
export function truncateOutcome(o: CaseOutcome, max: number = MAX_STORED_CHARS): CaseOutcome {
  return mapOutcomeText(o, (s) => truncateText(s, max));
}

/** `fn` over every stored text field of an outcome except `actualResponse`. */
function mapOutcomeText(o: CaseOutcome, fn: (s: string) => string): CaseOutcome {
  const cut = <T>(v: T) => mapStrings(v, fn);
  return {
    ...o,
    transcript: cut(o.transcript),
    checkResults: cut(o.checkResults),
    toolCallResults: cut(o.toolCallResults),
    outcomeResults: cut(o.outcomeResults),
    metricResults: cut(o.metricResults),
    errorMessage: o.errorMessage === null ? null : fn(o.errorMessage),
    llmCalls: o.llmCalls.map((c) => ({
      ...c,
      model: c.model === null ? null : fn(c.model),
      request: cut(c.request),
      response: c.response === null ? null : fn(c.response),
      error: c.error === null ? null : fn(c.error),
    })),
  };
}
