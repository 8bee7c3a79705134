import { checkVariableType, variableDefinitionSchema, type VariableDefinition, type VariableValue } from "@/lib/agents/schemas";
import type { IssueList } from "@/lib/errors";

/**
 * The variables model, suite level: a suite sets values for (some of) the variables its agent declares.
 * Pure functions, shared by the service (authoritative check) and the form (rendering).
 */

/** The agent's stored `variablesSchema` (JSON) → valid definitions; malformed entries are skipped. */
export function parseVariablesSchema(json: unknown): VariableDefinition[] {
  if (!Array.isArray(json)) return [];
  const out: VariableDefinition[] = [];
  for (const item of json) {
    const parsed = variableDefinitionSchema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

/** Stored suite `variables` (JSON) → a plain record of scalar values. */
export function parseVariableValues(json: unknown): Record<string, VariableValue> {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return {};
  const out: Record<string, VariableValue> = {};
  for (const [k, v] of Object.entries(json)) {
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
  }
  return out;
}

/**
 * Checks suite values against the agent's definitions: unknown names, wrong data types and
 * static values outside the possible values give issues at `variables.<name>`. Required
 * variables are not enforced here: a value may still come from the test, the run or the default.
 */
export function checkSuiteVariables(definitions: VariableDefinition[], values: Record<string, VariableValue>): IssueList {
  const byName = new Map(definitions.map((d) => [d.name, d]));
  const issues: IssueList = [];
  for (const [name, value] of Object.entries(values)) {
    const path = `variables.${name}`;
    const def = byName.get(name);
    if (!def) {
      const known = definitions.map((d) => d.name).join(", ");
      issues.push({
        path,
        message: known
          ? `Unknown variable "${name}" (the agent declares: ${known})`
          : `Unknown variable "${name}" (the agent declares no variables)`,
      });
      continue;
    }
    const typeProblem = checkVariableType(def.data_type, value);
    if (typeProblem) {
      issues.push({ path, message: typeProblem });
      continue;
    }
    if (def.value_source === "static" && !def.possible_values.some((pv) => pv.value === value)) {
      const allowed = def.possible_values.map((pv) => String(pv.value)).join(", ");
      issues.push({ path, message: `Must be one of: ${allowed}` });
    }
  }
  return issues;
}
