/**
 * How the changes card and the alerts word what changed between two runs (pure, client- and
 * server-safe): a label per flipped case's cause, the run-level summary line, a label per
 * changed field, and how to show a field's before/after (a line diff for prose, formatted JSON
 * for structures, "before → after" for short values). Values are user data: these functions
 * return plain strings, which the components render as text.
 */
import { CAUSE_LABELS, type ChangeCause, type FieldDiff } from "@/lib/runs/changes";
import { lineDiff, type DiffLine } from "@/components/ui/line-diff";

/**
 * The cause in words. The service counts an evaluation-settings change as the test changing; a
 * case that was not itself edited then says so rather than "the case changed".
 */
export function causeLabel(cause: ChangeCause, caseChanged: boolean): string {
  if (cause === "test" && !caseChanged) return "the evaluation settings changed";
  if (cause === "both" && !caseChanged) return "the evaluation settings and the agent changed";
  return CAUSE_LABELS[cause];
}

/** "run #41", or "the previous run" when the number is unknown. */
export const runLabel = (number: number | null | undefined) => (typeof number === "number" ? `run #${number}` : "the previous run");

/** The changes card's summary line: what changed between the runs as a whole. */
export function deltaSummary(since: string, delta: { agent_changed: boolean; evaluation_changed: boolean }): string {
  const { agent_changed: agent, evaluation_changed: evaluation } = delta;
  if (agent && evaluation) return `The agent and the evaluation settings changed since ${since}.`;
  if (agent) return `The agent changed since ${since}; the evaluation settings did not.`;
  if (evaluation) return `The evaluation settings changed since ${since}; the agent did not.`;
  return `Neither the agent nor the evaluation settings changed since ${since}.`;
}

const FIELD_LABELS: Record<string, string> = {
  // agent configuration (lib/runs/changes.ts agentDiff)
  kind: "Agent kind",
  system_prompt: "System prompt",
  tools: "Tools",
  model: "Model",
  base_url: "Base URL",
  temperature: "Temperature",
  max_tokens: "Max tokens",
  "http.url": "HTTP URL",
  "http.timeout_ms": "HTTP timeout (ms)",
  "http.header_names": "HTTP header names",
  // evaluation settings (evaluationDiff)
  judge_model: "Judge model",
  judge_base_url: "Judge base URL",
  simulator_model: "Simulator model",
  simulator_base_url: "Simulator base URL",
  metrics: "Metrics",
  max_turns_cap: "Max turns cap",
  // a case's content (caseDiff: the snapshot's keys)
  initial_message: "Initial message",
  persona: "Persona",
  user_context: "User context",
  max_turns: "Max turns",
  expected_outcomes: "Expected outcomes",
  expected_tool_calls: "Expected tool calls",
  checks: "Checks",
  mode: "Check mode",
  evaluation_criteria_override: "Evaluation criteria override",
  ground_truth: "Ground truth",
  files: "Files",
  evaluations: "Metrics of this case",
  variables: "Variables",
};

/** A field's name for people: "system_prompt" → "System prompt", "variables.TONE" → "Variable TONE". */
export function fieldLabel(field: string): string {
  const known = FIELD_LABELS[field];
  if (known) return known;
  if (field.startsWith("variables.")) return `Variable ${field.slice("variables.".length)}`;
  const words = field.replace(/[._]+/g, " ").trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : field;
}

/** Fields that hold prose: always shown as a line diff. */
const TEXT_FIELDS = new Set(["system_prompt", "initial_message", "evaluation_criteria_override", "ground_truth"]);
/** A string longer than this (or with a line break) reads better as a line diff than inline. */
const INLINE_MAX = 80;

const isAbsent = (v: unknown) => v === null || v === undefined;
const isStructure = (v: unknown) => typeof v === "object" && v !== null;

/** One value as text: "(not set)" when absent, strings as they are, structures as indented JSON. */
export function formatDiffValue(v: unknown): string {
  if (isAbsent(v)) return "(not set)";
  if (typeof v === "string") return v === "" ? "(empty)" : v;
  if (isStructure(v)) return JSON.stringify(v, null, 2);
  return String(v);
}

export type DiffPresentation =
  /** `lines` is null when the texts are too long to diff: show both instead. */
  | { kind: "text"; lines: DiffLine[] | null; before: string; after: string }
  | { kind: "json"; before: string; after: string }
  | { kind: "inline"; before: string; after: string };

/** Lines of a text diff; an absent side contributes no lines (rather than one empty line). */
function textLines(before: string, after: string): DiffLine[] | null {
  if (before === "") return after.split("\n").map((text) => ({ kind: "added", text }));
  if (after === "") return before.split("\n").map((text) => ({ kind: "removed", text }));
  return lineDiff(before, after);
}

/** How to show one field's change. */
export function presentDiff(diff: FieldDiff): DiffPresentation {
  const { field, before, after } = diff;
  const textual = (isAbsent(before) || typeof before === "string") && (isAbsent(after) || typeof after === "string");
  if (textual) {
    const a = (before as string | null | undefined) ?? "";
    const b = (after as string | null | undefined) ?? "";
    const prose = TEXT_FIELDS.has(field) || [a, b].some((s) => s.includes("\n") || s.length > INLINE_MAX);
    if (prose) return { kind: "text", lines: textLines(a, b), before: formatDiffValue(before), after: formatDiffValue(after) };
  }
  if (isStructure(before) || isStructure(after)) return { kind: "json", before: formatDiffValue(before), after: formatDiffValue(after) };
  return { kind: "inline", before: formatDiffValue(before), after: formatDiffValue(after) };
}
