/**
 * Which tool wrote an uploaded file, guessed from its name and first item, so the import dialog
 * can pre-select the format (the user can always change it; the server never guesses).
 * Pure and small: it runs in the browser.
 */
import { parse as parseYaml } from "yaml";
import type { ImportFormat } from "@/lib/test-cases/schemas";

export const IMPORT_FORMAT_LABELS: Record<ImportFormat, string> = {
  assay: "Assay (YAML, JSON or zip)",
  promptfoo: "promptfoo config",
  langfuse: "Langfuse dataset items",
  deepeval: "DeepEval goldens",
  "openai-jsonl": "OpenAI chat JSONL",
  inspect: "Inspect AI samples",
};

function firstItem(value: unknown): Record<string, unknown> | null {
  const list = Array.isArray(value)
    ? value
    : value && typeof value === "object"
      ? ((value as Record<string, unknown>).data ??
        (value as Record<string, unknown>).goldens ??
        (value as Record<string, unknown>).conversational_goldens ??
        (value as Record<string, unknown>).test_cases)
      : null;
  const item: unknown = Array.isArray(list) ? list[0] : null;
  return item && typeof item === "object" && !Array.isArray(item) ? (item as Record<string, unknown>) : null;
}

function readFirst(text: string, fileName: string): unknown {
  try {
    if (/\.jsonl$/i.test(fileName) || /^\s*\{[^\n]*\}\s*\n\s*\{/.test(text))
      return [JSON.parse(text.split("\n").find((l) => l.trim()) ?? "")];
    return /^\s*[[{]/.test(text) ? JSON.parse(text) : parseYaml(text);
  } catch {
    return null;
  }
}

/** The likely format of a file; null when nothing points anywhere (keep the user's choice). */
export function guessImportFormat(fileName: string, text: string): ImportFormat | null {
  if (/promptfoo/i.test(fileName)) return "promptfoo";
  const value = readFirst(text, fileName);
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const doc = value as Record<string, unknown>;
    if ("prompts" in doc || "providers" in doc || ("tests" in doc && !("test_cases" in doc))) return "promptfoo";
    if ("goldens" in doc || "conversational_goldens" in doc) return "deepeval";
    if ("test_cases" in doc) return "assay";
  }
  const item = firstItem(value);
  if (!item) return null;
  if ("messages" in item && !("input" in item)) return "openai-jsonl";
  if ("expectedOutput" in item || "sourceTraceId" in item || "datasetId" in item) return "langfuse";
  if ("expected_output" in item || "scenario" in item || "expected_tools" in item || "user_description" in item) return "deepeval";
  if ("target" in item && "input" in item) return "inspect";
  if ("name" in item && ("initial_message" in item || "persona" in item || "checks" in item)) return "assay";
  return null;
}
