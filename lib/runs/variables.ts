import { checkVariableType, type VariableDefinition, type VariableValue } from "@/lib/agents/schemas";
import type { IssueList } from "@/lib/errors";

export type VariableSource = "run" | "suite" | "test" | "type";

/** The variables model's TestVariableOverride, as a test case stores it (`TestCase.variables[NAME]`). */
export type TestVariableOverride = {
  exposed: boolean;
  default_value?: VariableValue | null;
  locked?: boolean;
  restricted_values?: VariableValue[] | null;
};
export type TestVariablesConfig = Record<string, TestVariableOverride>;
export type ResolvedVariables = { values: Record<string, VariableValue>; sources: Record<string, VariableSource> };

/**
 * Values an explicit setting fixes for a variable (a comparison arm's model configuration,
 * temperature or max tokens): they win over every other source, the case's locks included, and
 * are recorded with source "run", so the variables a run shows are the settings it ran with.
 * Only the data type is checked: an explicit model configuration need not be among the static
 * possible values the variable was declared with.
 */
export type PinnedValues = Record<string, VariableValue>;

/**
 * The variables model resolution, highest priority first: pinned (explicit settings) → run → suite → agent
 * ("test type") default. Values are validated against the definition (type; static values among
 * possible values); unknown names and required variables without a value are reported as issues.
 */
export function resolveVariables(
  definitions: VariableDefinition[],
  suiteValues: Record<string, VariableValue>,
  runValues: Record<string, VariableValue>,
  pinned: PinnedValues = {},
): { resolved: ResolvedVariables; issues: IssueList } {
  const issues: IssueList = [];
  const values: Record<string, VariableValue> = {};
  const sources: Record<string, VariableSource> = {};
  const known = new Set(definitions.map((d) => d.name));
  for (const name of Object.keys(runValues)) {
    if (!known.has(name)) issues.push({ path: `variables.${name}`, message: `Unknown variable "${name}"` });
  }
  for (const def of definitions) {
    if (pin(def, pinned, values, sources, issues)) continue;
    const candidates: [VariableSource, VariableValue | null | undefined][] = [
      ["run", runValues[def.name]],
      ["suite", suiteValues[def.name]],
      ["type", def.default_value],
    ];
    const found = candidates.find(([, v]) => v !== undefined && v !== null) as [VariableSource, VariableValue] | undefined;
    take(def, found, (_, value) => validateValue(def, value), values, sources, issues);
  }
  return { resolved: { values, sources }, issues };
}

/**
 * Takes the value resolved for `def` with its source, or reports why there is none: a required
 * variable without a value, or the value's problem (`problemOf`) naming where the value came from.
 */
function take(
  def: VariableDefinition,
  found: [VariableSource, VariableValue] | null | undefined,
  problemOf: (source: VariableSource, value: VariableValue) => string | null,
  values: Record<string, VariableValue>,
  sources: Record<string, VariableSource>,
  issues: IssueList,
) {
  if (!found) {
    if (def.required) issues.push({ path: `variables.${def.name}`, message: `Required variable "${def.name}" has no value` });
    return;
  }
  const [source, value] = found;
  const problem = problemOf(source, value);
  if (problem) {
    issues.push({ path: `variables.${def.name}`, message: `${problem} (from ${source})` });
    return;
  }
  values[def.name] = value;
  sources[def.name] = source;
}

/** Records a pinned value for `def` (true), or nothing when no explicit setting fixes it (false). */
function pin(
  def: VariableDefinition,
  pinned: PinnedValues,
  values: Record<string, VariableValue>,
  sources: Record<string, VariableSource>,
  issues: IssueList,
): boolean {
  const value = pinned[def.name];
  if (value === undefined) return false;
  const problem = checkVariableType(def.data_type, value);
  if (problem) issues.push({ path: `variables.${def.name}`, message: problem });
  else {
    values[def.name] = value;
    sources[def.name] = "run";
  }
  return true;
}

function validateValue(def: VariableDefinition, value: VariableValue): string | null {
  const typeProblem = checkVariableType(def.data_type, value);
  if (typeProblem) return typeProblem;
  if (def.value_source === "static" && def.possible_values.length > 0 && !def.possible_values.some((pv) => pv.value === value)) {
    return `Value ${JSON.stringify(value)} is not one of ${def.possible_values.map((pv) => JSON.stringify(pv.value)).join(", ")}`;
  }
  return null;
}

/**
 * The variables model resolution for one test case (its `VariableResolver.resolveVariables`): for each
 * variable of the agent ("test type") — skipped when the case does not expose it — a value
 * locked by the case wins; otherwise run → suite → the case's default → the type's default. Run
 * and suite values are checked against the data type, the static possible values and the case's
 * restricted values; the case's own default against the type. A missing configuration is the
 * the variables model's backward-compatible one: every variable exposed with the type's default.
 * Issues are returned with paths `variables.NAME` (the caller adds which case).
 */
export function resolveCaseVariables(
  definitions: VariableDefinition[],
  suiteValues: Record<string, VariableValue>,
  runValues: Record<string, VariableValue>,
  config: TestVariablesConfig | null | undefined,
  pinned: PinnedValues = {},
): { resolved: ResolvedVariables; issues: IssueList } {
  const issues: IssueList = [];
  const values: Record<string, VariableValue> = {};
  const sources: Record<string, VariableSource> = {};
  for (const def of definitions) {
    const override = config?.[def.name];
    if (override && !override.exposed) continue;
    if (pin(def, pinned, values, sources, issues)) continue;
    const present = (v: VariableValue | null | undefined): v is VariableValue => v !== undefined && v !== null;
    let found: [VariableSource, VariableValue] | null = null;
    if (override?.locked) {
      const locked = present(override.default_value) ? override.default_value : def.default_value;
      if (present(locked)) found = ["test", locked];
    } else if (present(runValues[def.name])) found = ["run", runValues[def.name]!];
    else if (present(suiteValues[def.name])) found = ["suite", suiteValues[def.name]!];
    else if (present(override?.default_value)) found = ["test", override.default_value];
    else if (present(def.default_value)) found = ["type", def.default_value];
    const problemOf = (source: VariableSource, value: VariableValue) =>
      validateValue(def, value) ?? (source === "run" || source === "suite" ? restrictedProblem(override, value) : null);
    take(def, found, problemOf, values, sources, issues);
  }
  return { resolved: { values, sources }, issues };
}

function restrictedProblem(override: TestVariableOverride | undefined, value: VariableValue): string | null {
  const allowed = override?.restricted_values;
  if (!allowed || allowed.length === 0 || allowed.some((v) => v === value)) return null;
  return `${JSON.stringify(value)} not in restricted values (${allowed.map((v) => JSON.stringify(v)).join(", ")})`;
}
