import type { IssueList } from "@/lib/errors";
import { MAX_JSON_DEPTH, MAX_JSON_FIELD_CHARS } from "@/lib/validation/limits";

/**
 * Text PostgreSQL cannot store. A NUL character is refused in `text` and `jsonb` alike, and a lone
 * UTF-16 surrogate (half of a pair) is not valid Unicode: JSON.stringify writes it as `\ud800`,
 * which `jsonb` refuses. Inputs that contain either are rejected with a 400 naming each path
 * (`findInvalidText`, run by `withApi`, the server action client and the test case import);
 * outputs of agents and models are stored with them removed (`stripInvalidText`, composed into
 * lib/runs/truncate.ts). No `server-only`: pure functions.
 */

// With the `u` flag a well-formed surrogate pair is one code point, so \p{Cs} matches only lone halves.
const LONE_SURROGATES = /\p{Cs}/gu;
// NUL is the point of these patterns, hence the control character.
// eslint-disable-next-line no-control-regex
const INVALID = /\u0000|\p{Cs}/u;
// eslint-disable-next-line no-control-regex
const INVALID_ALL = /\u0000|\p{Cs}/gu;

export const NUL_MESSAGE = "contains a NUL character";
export const SURROGATE_MESSAGE = "contains an invalid character (a lone UTF-16 surrogate)";
export const DEPTH_MESSAGE = `is nested more than ${MAX_JSON_DEPTH} levels deep`;

/** The problem with `s`, or null when PostgreSQL can store it. */
export function invalidTextProblem(s: string): string | null {
  if (!INVALID.test(s)) return null;
  return s.includes("\u0000") ? NUL_MESSAGE : SURROGATE_MESSAGE;
}

/** `s` without NUL characters and lone surrogates (well-formed pairs are kept). */
export function stripInvalidText(s: string): string {
  return INVALID.test(s) ? s.replace(INVALID_ALL, "") : s;
}

/** A path segment as it can be shown: invalid characters of an object key spelled out. */
function segment(key: PropertyKey): string {
  const k = String(key);
  return INVALID.test(k) ? k.replaceAll("\u0000", "\\u0000").replace(LONE_SURROGATES, (c) => `\\u${c.charCodeAt(0).toString(16)}`) : k;
}

/**
 * Every string (and object key) in a parsed JSON/YAML value that contains a NUL character or a
 * lone surrogate, and every object nested deeper than MAX_JSON_DEPTH, as zod-style issues with
 * dotted paths (`persona.instructions`, `checks.0.phrases.1`). Iterative, so a body nested
 * 100,000 levels deep cannot overflow the stack. At most `maxIssues` are returned.
 */
export function findInvalidText(value: unknown, { prefix = [] as PropertyKey[], maxIssues = 50 } = {}): IssueList {
  const issues: IssueList = [];
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value, path: prefix }];
  const at = (path: PropertyKey[]) => path.map(segment).join(".");
  while (stack.length > 0 && issues.length < maxIssues) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === "string") {
      const problem = invalidTextProblem(v);
      if (problem) issues.push({ path: at(path), message: problem });
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (path.length - prefix.length >= MAX_JSON_DEPTH) {
      issues.push({ path: at(path), message: DEPTH_MESSAGE });
      continue;
    }
    const entries: [PropertyKey, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    // Reversed onto the stack so issues come out in document order.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      if (typeof key === "string") {
        const problem = invalidTextProblem(key);
        if (problem) {
          issues.push({ path: at([...path, key]), message: `the key ${problem}` });
          continue;
        }
      }
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return issues;
}

/** True when `value` serialises to at most `max` characters of JSON (free-form JSON fields). */
export function jsonFits(value: unknown, max = MAX_JSON_FIELD_CHARS): boolean {
  try {
    return (JSON.stringify(value)?.length ?? 0) <= max;
  } catch {
    return false; // cyclic or nested too deeply to serialise
  }
}

export const JSON_TOO_LARGE_MESSAGE = `Use at most ${MAX_JSON_FIELD_CHARS.toLocaleString("en-US")} characters of JSON`;

/**
 * The same rule as a zod refinement, for the few schemas parsed outside withApi and the action
 * client (sign-in, setup and invitation forms): `z.string().superRefine(storableText)`.
 */
export function storableText(s: string, ctx: { addIssue: (issue: { code: "custom"; message: string }) => void }) {
  const problem = invalidTextProblem(s);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
}
