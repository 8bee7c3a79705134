import type { FieldErrors, FieldValues } from "react-hook-form";
import type { VariableDefinition, VariableValue } from "@/lib/agents/schemas";
import type { IssueList } from "@/lib/errors";
import type { TestCaseVariables } from "@/lib/test-cases/variables";

/**
 * The case form's "Variables" section edits one row per variable of the suite's agent (plus
 * rows for overrides of variables the agent no longer declares, so they can be seen and
 * removed). A row equal to "exposed, no default, not locked, no restriction" is the variables model's
 * missing configuration and is left out of the saved `variables`.
 */
export type CaseVariableRow = {
  exposed: boolean;
  default_value: VariableValue | null;
  locked: boolean;
  /** Static variables: the checked possible values. */
  restricted: VariableValue[];
  /** Freeform variables: restricted values as typed, comma-separated. */
  restricted_text: string;
  data_type: VariableDefinition["data_type"];
  is_static: boolean;
  /** The agent no longer declares this variable. */
  stale: boolean;
};

export function caseVariablesToRows(
  definitions: readonly VariableDefinition[],
  variables: TestCaseVariables,
): Record<string, CaseVariableRow> {
  const rows: Record<string, CaseVariableRow> = {};
  for (const d of definitions) {
    const o = variables?.[d.name];
    const isStatic = d.value_source === "static" && d.possible_values.length > 0;
    rows[d.name] = {
      exposed: o?.exposed ?? true,
      default_value: o?.default_value ?? null,
      locked: o?.locked ?? false,
      restricted: isStatic ? (o?.restricted_values ?? []) : [],
      restricted_text: isStatic ? "" : (o?.restricted_values ?? []).map(String).join(", "),
      data_type: d.data_type,
      is_static: isStatic,
      stale: false,
    };
  }
  for (const [name, o] of Object.entries(variables ?? {})) {
    if (rows[name]) continue;
    rows[name] = {
      exposed: o.exposed,
      default_value: o.default_value,
      locked: o.locked,
      restricted: o.restricted_values ?? [],
      restricted_text: "",
      data_type: "string",
      is_static: true,
      stale: true,
    };
  }
  return rows;
}

function parseTyped(dataType: CaseVariableRow["data_type"], text: string): VariableValue {
  const t = text.trim();
  if (dataType === "number" && t !== "" && !Number.isNaN(Number(t))) return Number(t);
  if (dataType === "boolean" && (t === "true" || t === "false")) return t === "true";
  return t;
}

/** Form rows → the case's `variables` (null when every row is the default configuration). */
export function rowsToCaseVariables(rows: Record<string, CaseVariableRow> | undefined): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  for (const [name, r] of Object.entries(rows ?? {})) {
    const restricted = r.is_static
      ? r.restricted
      : r.restricted_text
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
          .map((s) => parseTyped(r.data_type, s));
    if (r.exposed && r.default_value === null && !r.locked && restricted.length === 0) continue;
    out[name] = {
      exposed: r.exposed,
      default_value: r.default_value,
      locked: r.locked,
      restricted_values: restricted.length ? restricted : null,
    };
  }
  return Object.keys(out).length ? out : null;
}

/**
 * A validation issue's path (public case fields) → the case form's field path: restricted values
 * report at the row's restricted input, user context at its editor, an expected outcome at its
 * row's label.
 */
export function formPathForIssue(path: string, outcomeLabels: string[]): string {
  const restricted = /^variables\.([^.]+)\.restricted_values(\.\d+)?$/.exec(path);
  if (restricted) return `variables.${restricted[1]}.restricted`;
  if (/^variables\.[^.]+$/.test(path)) return `${path}.exposed`;
  if (path.startsWith("user_context.")) return "user_context";
  if (path.startsWith("expected_outcomes.")) {
    const label = path.slice("expected_outcomes.".length);
    const row = outcomeLabels.findIndex((l) => l.trim() === label || label.startsWith(`${l.trim()}.`));
    return row >= 0 ? `expected_outcomes.${row}.label` : "expected_outcomes";
  }
  return path;
}

/** Issues → react-hook-form's nested errors object (first message per field). */
export function issuesToFieldErrors<T extends FieldValues>(issues: IssueList, outcomeLabels: string[]): FieldErrors<T> {
  const root: Record<string, unknown> = {};
  for (const issue of issues) {
    const parts = formPathForIssue(issue.path, outcomeLabels).split(".");
    let node = root;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (!next || typeof next !== "object") node[part] = {};
      node = node[part] as Record<string, unknown>;
    }
    const leaf = parts[parts.length - 1]!;
    if (!node[leaf]) node[leaf] = { type: "validate", message: issue.message };
  }
  return root as FieldErrors<T>;
}
