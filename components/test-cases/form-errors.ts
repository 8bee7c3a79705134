import type { FieldErrors, FieldValues } from "react-hook-form";
import { CRITERIA_WITHOUT_OUTCOMES_MESSAGE, RUNNABLE_MESSAGE } from "@/lib/test-cases/schemas";

/**
 * Where the case form shows its errors, and in which words. The schema's messages are shared with
 * the API and import, so a few of them name API fields (`initial_message`); the form says the
 * same thing in the words on its labels. Errors are listed in a summary above the form, each
 * named by its field's label and linked to the field, so an issue at a field that is off screen
 * (or one that has no field) is never lost.
 */

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
 * like tags or phrases — the first message found below it, in the form's words.
 */
export function errorAt<T extends FieldValues>(errors: FieldErrors<T>, path: string): string | undefined {
  let node: unknown = errors;
  for (const part of path.split(".")) {
    if (!node || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  const message = firstMessage(node);
  return message === undefined ? undefined : userMessage(message);
}

/** Schema messages that name API fields, as the form says them. */
const IN_FORM_WORDS: Record<string, string> = {
  [RUNNABLE_MESSAGE]:
    "An active case needs an initial message or a simulated user to run. Add one, or set the status to Draft to save it unfinished.",
  [CRITERIA_WITHOUT_OUTCOMES_MESSAGE]:
    "The evaluation criteria override is the judge's rubric for the expected outcomes, and this case has none: add an expected outcome or clear the override.",
  "Status must be draft, active or archived": "Choose a status: Active, Draft or Archived.",
  "Difficulty must be normal or hard": "Choose a difficulty: Normal or Hard.",
  "Mode must be all or any": "Choose whether all checks or any check must pass.",
};

export function userMessage(message: string): string {
  return IN_FORM_WORDS[message] ?? message;
}

/** The label a field path has on the form (`checks.1.threshold` → "Check 2 · Threshold"). */
export function fieldLabel(path: string): string {
  const top: Record<string, string> = {
    name: "Name",
    description: "Description",
    difficulty: "Difficulty",
    tags: "Tags",
    status: "Status",
    initial_message: "Initial message",
    persona: "Simulated user",
    user_context: "User context",
    max_turns: "Max turns",
    expected_outcomes: "Expected outcomes",
    expected_tool_calls: "Expected tool calls",
    evaluation_criteria_override: "Evaluation criteria override",
    checks: "Checks",
    mode: "Mode",
    ground_truth: "Ground truth",
    evaluations: "Metrics for this case",
    variables: "Variables",
    files: "Files",
  };
  const leaf: Record<string, string> = {
    type: "Persona type",
    description: "Persona description",
    instructions: "Persona instructions",
    label: "Label",
    tool: "Tool",
    expected_params: "Expected parameters",
    phrases: "Phrases",
    expected_answer: "Expected answer",
    threshold: "Threshold",
    criteria: "Criteria",
  };
  const parts = path.split(".");
  const head = parts[0] ?? "";
  if (head === "persona" && parts[1]) return leaf[parts[1]] ?? "Simulated user";
  const row = parts[1] !== undefined && /^\d+$/.test(parts[1]) ? Number(parts[1]) + 1 : null;
  const rowName: Record<string, string> = {
    checks: "Check",
    expected_outcomes: "Outcome",
    expected_tool_calls: "Tool call",
    files: "File",
  };
  if (row !== null && rowName[head]) {
    const field = parts[2] ? leaf[parts[2]] : undefined;
    return field ? `${rowName[head]} ${row} · ${field}` : `${rowName[head]} ${row}`;
  }
  if (head === "variables" && parts[1]) return `Variable ${parts[1]}`;
  return top[head] ?? "This test case";
}

export type FieldIssue = { path: string; label: string; message: string };

/** Every error in react-hook-form's nested errors object, one per field, in form order. */
export function fieldIssues(errors: unknown, prefix = ""): FieldIssue[] {
  if (!errors || typeof errors !== "object") return [];
  const rec = errors as Record<string, unknown>;
  if (typeof rec.message === "string" && rec.message && prefix) {
    return [{ path: prefix, label: fieldLabel(prefix), message: userMessage(rec.message) }];
  }
  const out: FieldIssue[] = [];
  for (const [key, child] of Object.entries(rec)) {
    if (key === "ref" || key === "type" || key === "types" || key === "root") continue;
    out.push(...fieldIssues(child, prefix ? `${prefix}.${key}` : key));
  }
  return out;
}
