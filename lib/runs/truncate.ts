import type { CaseOutcome } from "./executor";

/**
 * Caps every text field stored from a run (transcript messages, LLM call request/response logs,
 * check details) at the spec's 20,000 characters, with a visible marker, so one runaway agent or
 * model answer cannot bloat the database or the pages that show it. `mapStrings` is the
 * composable part: other per-string clean-ups (e.g. removing NUL characters) can reuse it.
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

/** Applies `fn` to every string in a JSON-like value (arrays and plain objects, any depth); other values are kept. */
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
  for (const [k, v] of Object.entries(value)) out[k] = walk(v, fn, depth + 1);
  return out;
}

/** Every string in `value` cut by truncateText. */
export function truncateStrings<T>(value: T, max: number = MAX_STORED_CHARS): T {
  return mapStrings(value, (s) => truncateText(s, max));
}

/**
 * The outcome as it is stored: every text field truncated. `actualResponse` keeps its own
 * column rule (cut at MAX_RESPONSE_CHARS with `responseTruncated` set) and is left alone here.
 */
export function truncateOutcome(o: CaseOutcome, max: number = MAX_STORED_CHARS): CaseOutcome {
  const cut = <T>(v: T) => truncateStrings(v, max);
  return {
    ...o,
    transcript: cut(o.transcript),
    checkResults: cut(o.checkResults),
    toolCallResults: cut(o.toolCallResults),
    outcomeResults: cut(o.outcomeResults),
    metricResults: cut(o.metricResults),
    errorMessage: o.errorMessage === null ? null : truncateText(o.errorMessage, max),
    llmCalls: o.llmCalls.map((c) => ({
      ...c,
      request: cut(c.request),
      response: c.response === null ? null : truncateText(c.response, max),
      error: c.error === null ? null : truncateText(c.error, max),
    })),
  };
}
