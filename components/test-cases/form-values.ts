import { z } from "zod";
import { CASE_FIELDS, testCaseInput, type Check, type TestCaseData, type TestCaseStatus } from "@/lib/test-cases/schemas";
import type { TestCaseDto } from "@/lib/test-cases/dto";
import type { CaseDraft } from "@/lib/traffic/dto";
import { rowsToCaseVariables, type CaseVariableRow } from "@/components/variables/case-variable-rows";
import { filesToRows, rowsToFiles, type FileRow } from "./case-file-rows";

/**
 * The test case form edits text (JSON editors, numbers as typed, outcome rows) and turns it
 * into the public test case shape on submit, which is then validated by `testCaseInput` — the
 * same schema the server action, the API and import use. Issue paths are the public field
 * paths (`checks.0.threshold`, `expected_tool_calls.1.expected_params`), so errors land at the
 * field whose id is that path. Outcome rows report at `expected_outcomes.<row>.label`.
 */

export type CheckType = Check["type"];

export type CheckRow = {
  type: CheckType;
  /** contains_phrases: one phrase per line. */
  phrases: string;
  case_sensitive: boolean;
  /** semantic_similarity and llm_judge. */
  expected_answer: string;
  /** semantic_similarity: as typed, 0..1. */
  threshold: string;
  /** llm_judge. */
  criteria: string;
};

export type CaseFormValues = {
  name: string;
  description: string;
  difficulty: "normal" | "hard";
  tags: string[];
  status: TestCaseStatus;
  initial_message: string;
  multi_turn: boolean;
  persona: { type: string; description: string; instructions: string };
  user_context: string;
  max_turns: string;
  expected_outcomes: { label: string; value: string }[];
  expected_tool_calls: { tool: string; expected_params: string; forbidden: boolean }[];
  evaluation_criteria_override: string;
  checks: CheckRow[];
  mode: "all" | "any";
  ground_truth: string;
  /** The execution model per-test metrics: off = the suite's enabled metrics; on = the names typed (comma-separated; none = no metric). */
  evaluations_custom: boolean;
  evaluations: string;
  /** The variables model test level: one row per variable of the agent (components/variables/case-variable-rows.ts). */
  variables: Record<string, CaseVariableRow>;
  /** The execution model file inputs: one row per uploaded file or URL (./case-file-rows.ts). */
  files: FileRow[];
};

type Issue = { path: (string | number)[]; message: string };

export function emptyCheck(type: CheckType): CheckRow {
  return {
    type,
    phrases: "",
    case_sensitive: false,
    expected_answer: "",
    threshold: type === "semantic_similarity" ? "0.8" : "",
    criteria: "",
  };
}

export function emptyFormValues(): CaseFormValues {
  return {
    name: "",
    description: "",
    difficulty: "normal",
    tags: [],
    status: "active",
    initial_message: "",
    multi_turn: false,
    persona: { type: "", description: "", instructions: "" },
    user_context: "",
    max_turns: "",
    expected_outcomes: [],
    expected_tool_calls: [],
    evaluation_criteria_override: "",
    checks: [],
    mode: "all",
    ground_truth: "",
    evaluations_custom: false,
    evaluations: "",
    variables: {},
    files: [],
  };
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Outcome values: plain text is stored as a string; text that is JSON (true, 3, null,
 * {"a": 1}, "quoted") is stored as that JSON value. A string that would read as JSON is shown
 * quoted, so loading and saving a case never changes a value's type.
 */
export function outcomeValueToText(value: unknown): string {
  if (typeof value === "string") return isJsonText(value) ? JSON.stringify(value) : value;
  return JSON.stringify(value) ?? "";
}

export function outcomeTextToValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function jsonToText(value: unknown): string {
  return value == null ? "" : JSON.stringify(value, null, 2);
}

/** Parses an optional JSON object editor's text: "" → null. */
export function parseJsonObject(text: string): { value: Record<string, unknown> | null; error?: string } {
  if (text.trim() === "") return { value: null };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { value: null, error: `Not valid JSON: ${err instanceof Error ? err.message : "parse error"}` };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { value: null, error: 'Must be a JSON object, like {"key": "value"}' };
  }
  return { value: parsed as Record<string, unknown> };
}

function toNumber(text: string): number | undefined {
  const t = text.trim();
  return t === "" ? undefined : Number(t);
}

function toCheck(row: CheckRow): unknown {
  switch (row.type) {
    case "contains_phrases":
      return {
        type: row.type,
        phrases: row.phrases
          .split("\n")
          .map((p) => p.replace(/\r$/, ""))
          .filter((p) => p.trim() !== ""),
        case_sensitive: row.case_sensitive,
      };
    case "semantic_similarity":
      return { type: row.type, expected_answer: row.expected_answer, threshold: toNumber(row.threshold) };
    case "llm_judge":
      return { type: row.type, expected_answer: row.expected_answer, criteria: row.criteria };
  }
}

/** Form values → the public test case input, plus issues the conversion itself found. */
export function formToInput(v: CaseFormValues): { input: Record<string, unknown>; issues: Issue[] } {
  const issues: Issue[] = [];

  // User context and max turns belong to the simulated user's conversation: without a persona
  // their inputs are hidden and nothing is sent, so a hidden value can neither fail nor be stored.
  const ctx = v.multi_turn ? parseJsonObject(v.user_context) : { value: null };
  if (ctx.error) issues.push({ path: ["user_context"], message: ctx.error });

  const outcomes: Record<string, unknown> = {};
  v.expected_outcomes.forEach((row, i) => {
    const label = row.label.trim();
    if (label === "" && row.value.trim() === "") return;
    if (label === "") issues.push({ path: ["expected_outcomes", i, "label"], message: "Outcome labels cannot be empty" });
    else if (label.length > 500) issues.push({ path: ["expected_outcomes", i, "label"], message: "Use at most 500 characters" });
    else if (label in outcomes) issues.push({ path: ["expected_outcomes", i, "label"], message: `Duplicate label "${label}"` });
    else outcomes[label] = outcomeTextToValue(row.value);
  });

  const toolCalls = v.expected_tool_calls.map((row, i) => {
    const params = parseJsonObject(row.expected_params);
    if (params.error) issues.push({ path: ["expected_tool_calls", i, "expected_params"], message: params.error });
    return { tool: row.tool, expected_params: params.value, ...(row.forbidden ? { forbidden: true } : {}) };
  });

  const files = rowsToFiles(v.files);
  issues.push(...files.issues);

  const maxTurns = v.multi_turn ? v.max_turns.trim() : "";
  const input: Record<string, unknown> = {
    name: v.name,
    description: v.description,
    difficulty: v.difficulty,
    tags: v.tags,
    status: v.status,
    persona: v.multi_turn ? v.persona : null,
    initial_message: v.initial_message,
    user_context: ctx.value,
    max_turns: maxTurns === "" ? null : Number(maxTurns),
    expected_outcomes: Object.keys(outcomes).length > 0 ? outcomes : null,
    expected_tool_calls: toolCalls.length > 0 ? toolCalls : null,
    evaluation_criteria_override: v.evaluation_criteria_override,
    checks: v.checks.map(toCheck),
    mode: v.mode,
    ground_truth: v.ground_truth,
    evaluations: v.evaluations_custom
      ? v.evaluations
          .split(/[,\n]/)
          .map((n) => n.trim())
          .filter(Boolean)
      : null,
    variables: rowsToCaseVariables(v.variables),
    files: files.files,
  };
  return { input, issues };
}

/**
 * The form's resolver schema: converts the form values and validates the result with
 * `testCaseInput`, reporting conversion and schema issues together.
 */
export const caseFormSchema = z.custom<CaseFormValues>().transform((values, ctx): TestCaseData => {
  const { input, issues } = formToInput(values);
  for (const issue of issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  const parsed = testCaseInput.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: "custom", path: issue.path.map((p) => (typeof p === "symbol" ? String(p) : p)), message: issue.message });
    }
    return z.NEVER;
  }
  if (issues.length > 0) return z.NEVER;
  return parsed.data;
});

function checkToRow(c: Check): CheckRow {
  const row = emptyCheck(c.type);
  switch (c.type) {
    case "contains_phrases":
      return { ...row, phrases: c.phrases.join("\n"), case_sensitive: c.case_sensitive };
    case "semantic_similarity":
      return { ...row, expected_answer: c.expected_answer, threshold: String(c.threshold) };
    case "llm_judge":
      return { ...row, expected_answer: c.expected_answer, criteria: c.criteria ?? "" };
  }
}

/** The conversation and expectations of a stored or a drafted case, as form values. */
function conversationToFormValues(
  c: Pick<TestCaseDto, "initial_message" | "persona" | "user_context" | "max_turns" | "expected_outcomes" | "expected_tool_calls">,
) {
  return {
    initial_message: c.initial_message ?? "",
    persona: c.persona ?? { type: "", description: "", instructions: "" },
    user_context: jsonToText(c.user_context),
    max_turns: c.max_turns == null ? "" : String(c.max_turns),
    expected_outcomes: Object.entries(c.expected_outcomes ?? {}).map(([label, value]) => ({ label, value: outcomeValueToText(value) })),
    expected_tool_calls: (c.expected_tool_calls ?? []).map((t) => ({
      tool: t.tool,
      expected_params: jsonToText(t.expected_params),
      forbidden: t.forbidden === true,
    })),
  };
}

/** A stored case → form values (the inverse of formToInput). */
export function caseToFormValues(c: TestCaseDto): CaseFormValues {
  return {
    name: c.name,
    description: c.description ?? "",
    difficulty: c.difficulty,
    tags: c.tags,
    status: c.status,
    multi_turn: c.persona !== null,
    ...conversationToFormValues(c),
    evaluation_criteria_override: c.evaluation_criteria_override ?? "",
    checks: c.checks.map(checkToRow),
    mode: c.mode,
    ground_truth: c.ground_truth ?? "",
    evaluations_custom: c.evaluations !== null,
    evaluations: (c.evaluations ?? []).join(", "),
    // Filled from the agent's definitions by the form (caseVariablesToRows).
    variables: {},
    files: filesToRows(c.files),
  };
}

/** Top-level fields the form renders errors for (server issues elsewhere, the expected outcomes' among them, go to the form's error list). */
export const FORM_FIELDS: string[] = CASE_FIELDS.filter((field) => field !== "expected_outcomes");

/**
 * Form values of a drafted case (from a conversation or a case result): the draft's fields, a
 * simulated-user section open for a persona draft even when the persona is left to write.
 */
export function draftToFormValues(draft: CaseDraft): CaseFormValues {
  const d = draft.test_case;
  return {
    ...emptyFormValues(),
    name: d.name,
    description: d.description ?? "",
    tags: d.tags,
    status: d.status,
    multi_turn: draft.kind === "persona",
    ...conversationToFormValues(d),
  };
}
