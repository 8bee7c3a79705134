/**
 * The variables model's `{{Name}}` placeholders: the names a text refers to, and the ones a set of declared
 * variables does not know. The pattern is the one lib/conversation/variables.ts substitutes
 * (spaces inside the braces allowed), so what is checked at save time is what runs.
 */
import type { IssueList } from "@/lib/errors";

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The distinct placeholder names in `text`, in order of appearance. */
export function placeholderNames(text: string): string[] {
  if (!text.includes("{{")) return [];
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/** "Unknown variable {{Foo}} (the agent declares A, B)" for each unknown placeholder of `text`. */
export function unknownPlaceholderIssues(text: string | null | undefined, declared: readonly string[], path: string): IssueList {
  if (!text) return [];
  const known = new Set(declared);
  return placeholderNames(text)
    .filter((name) => !known.has(name))
    .map((name) => ({ path, message: `Unknown variable {{${name}}}: ${declaredList(declared)}` }));
}

/** Every string inside a JSON value (object values, array items), each with its dotted path. */
export function unknownPlaceholderIssuesIn(value: unknown, declared: readonly string[], path: string): IssueList {
  if (typeof value === "string") return unknownPlaceholderIssues(value, declared, path);
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownPlaceholderIssuesIn(v, declared, `${path}.${i}`));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => unknownPlaceholderIssuesIn(v, declared, `${path}.${k}`));
  }
  return [];
}

function declaredList(declared: readonly string[]): string {
  return declared.length === 0 ? "the agent declares no variables" : `the agent declares ${declared.join(", ")}`;
}
