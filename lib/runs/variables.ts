import { checkVariableType, type VariableDefinition, type VariableValue } from "@/lib/agents/schemas";
import type { IssueList } from "@/lib/errors";

export type VariableSource = "run" | "suite" | "type";
export type ResolvedVariables = { values: Record<string, VariableValue>; sources: Record<string, VariableSource> };

/**
 * Spec 004 resolution, highest priority first: run → suite → agent ("test type") default.
 * Values are validated against the definition (type; static values among possible values);
 * unknown names and required variables without a value are reported as issues.
 */
export function resolveVariables(
  definitions: VariableDefinition[],
  suiteValues: Record<string, VariableValue>,
  runValues: Record<string, VariableValue>,
): { resolved: ResolvedVariables; issues: IssueList } {
  const issues: IssueList = [];
  const values: Record<string, VariableValue> = {};
  const sources: Record<string, VariableSource> = {};
  const known = new Set(definitions.map((d) => d.name));
  for (const name of Object.keys(runValues)) {
    if (!known.has(name)) issues.push({ path: `variables.${name}`, message: `Unknown variable "${name}"` });
  }
  for (const def of definitions) {
    const candidates: [VariableSource, VariableValue | null | undefined][] = [
      ["run", runValues[def.name]],
      ["suite", suiteValues[def.name]],
      ["type", def.default_value],
    ];
    const found = candidates.find(([, v]) => v !== undefined && v !== null);
    if (!found) {
      if (def.required) issues.push({ path: `variables.${def.name}`, message: `Required variable "${def.name}" has no value` });
      continue;
    }
    const [source, value] = found as [VariableSource, VariableValue];
    const problem = validateValue(def, value);
    if (problem) {
      issues.push({ path: `variables.${def.name}`, message: `${problem} (from ${source})` });
      continue;
    }
    values[def.name] = value;
    sources[def.name] = source;
  }
  return { resolved: { values, sources }, issues };
}

function validateValue(def: VariableDefinition, value: VariableValue): string | null {
  const typeProblem = checkVariableType(def.data_type, value);
  if (typeProblem) return typeProblem;
  if (def.value_source === "static" && def.possible_values.length > 0 && !def.possible_values.some((pv) => pv.value === value)) {
    return `Value ${JSON.stringify(value)} is not one of ${def.possible_values.map((pv) => JSON.stringify(pv.value)).join(", ")}`;
  }
  return null;
}
