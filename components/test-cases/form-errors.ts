import type { FieldErrors, FieldValues } from "react-hook-form";

function firstMessage(node: unknown): string | undefined {
  if (!node || typeof node !== "object") return undefined;
  const rec = node as Record<string, unknown>;
  if (typeof rec.message === "string" && rec.message) return rec.message;
  for (const [key, child] of Object.entries(rec)) {
    if (key === "ref" || key === "type" || key === "types") continue;
    const found = firstMessage(child);
    if (found) return found;
  }
  return undefined;
}

/**
 * The error message at a dotted field path (`checks.0.threshold`), or — for composite fields
 * like tags or phrases — the first message found below it.
 */
export function errorAt<T extends FieldValues>(errors: FieldErrors<T>, path: string): string | undefined {
  let node: unknown = errors;
  for (const part of path.split(".")) {
    if (!node || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return firstMessage(node);
}
