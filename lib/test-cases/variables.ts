/**
 * The variables model at the test level: a case's `variables` (TestVariablesConfig as Assay stores it,
 * `{NAME: {exposed, default_value, locked, restricted_values}}`) and the rules that need the
 * suite's agent ("test type"): only declared variables, values of the declared type, restricted
 * values within the possible ones, a default for a locked variable; and no `{{Name}}` placeholder
 * the agent does not declare in the texts a run substitutes. Pure functions: the service, the
 * import and the case form all call them (lib/test-cases/variable-guards.ts loads the agent).
 */
import { z } from "zod";
import { checkVariableType, type VariableDefinition, type VariableValue } from "@/lib/agents/schemas";
import { unknownPlaceholderIssues, unknownPlaceholderIssuesIn } from "@/lib/agents/placeholders";
import type { IssueList } from "@/lib/errors";
import { TEXT_LIMITS } from "@/lib/validation/limits";

const variableValue = z.union([z.string().max(TEXT_LIMITS.description), z.number(), z.boolean()], {
  error: "Values are text, numbers or true/false",
});

/** The variables model's TestVariableOverride (snake_case). `exposed` defaults to true, `locked` to false. */
export const testVariableOverrideSchema = z.object(
  {
    exposed: z.boolean({ error: "exposed must be true or false" }).default(true),
    default_value: variableValue.nullish().transform((v) => v ?? null),
    locked: z.boolean({ error: "locked must be true or false" }).default(false),
    restricted_values: z
      .array(variableValue, { error: "restricted_values must be a list of values" })
      .max(100, "At most 100 restricted values")
      .nullish()
      // [] restricts nothing (the resolver treats it like no list): stored as null.
      .transform((v) => (v && v.length > 0 ? [...new Set(v)] : null)),
  },
  { error: "A variable override is an object with exposed, default_value, locked and restricted_values" },
);
export type TestVariableOverrideData = z.output<typeof testVariableOverrideSchema>;

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `variables` of a test case; null (or {}) = every variable of the agent exposed with its default. */
export const testCaseVariablesSchema = z
  .record(
    z.string().max(TEXT_LIMITS.identifier).regex(VARIABLE_NAME, "Variable names use letters, digits and _ (not starting with a digit)"),
    testVariableOverrideSchema,
    { error: "Variables must be an object of variable name → {exposed, default_value, locked, restricted_values}" },
  )
  .refine((v) => Object.keys(v).length <= 100, "At most 100 variables")
  .nullish()
  .transform((v) => (v && Object.keys(v).length > 0 ? v : null));
export type TestCaseVariables = z.output<typeof testCaseVariablesSchema>;

const show = (v: VariableValue) => JSON.stringify(v);
const declaredNames = (definitions: readonly VariableDefinition[]) => definitions.map((d) => d.name);

/** Is `value` allowed by the definition's static list (freeform: always)? */
function possible(def: VariableDefinition, value: VariableValue): boolean {
  return def.value_source !== "static" || def.possible_values.length === 0 || def.possible_values.some((pv) => pv.value === value);
}

/**
 * The test-level rules that need the agent's definitions, as issues at
 * `variables.NAME[.default_value|.locked|.restricted_values.i]`.
 */
export function caseVariableIssues(variables: TestCaseVariables, definitions: readonly VariableDefinition[]): IssueList {
  const issues: IssueList = [];
  if (!variables) return issues;
  const byName = new Map(definitions.map((d) => [d.name, d]));
  for (const [name, o] of Object.entries(variables)) {
    const at = `variables.${name}`;
    const def = byName.get(name);
    if (!def) {
      const known = declaredNames(definitions);
      issues.push({
        path: at,
        message: `Unknown variable "${name}": ${known.length ? `the agent declares ${known.join(", ")}` : "the agent declares no variables"}`,
      });
      continue;
    }
    const restricted = o.restricted_values;
    restricted?.forEach((v, i) => {
      const problem = checkVariableType(def.data_type, v);
      if (problem) issues.push({ path: `${at}.restricted_values.${i}`, message: `${show(v)}: ${problem}` });
      else if (!possible(def, v)) {
        issues.push({
          path: `${at}.restricted_values.${i}`,
          message: `${show(v)} is not a possible value of ${name} (${def.possible_values.map((pv) => show(pv.value)).join(", ")})`,
        });
      }
    });
    if (o.default_value !== null) {
      const problem = checkVariableType(def.data_type, o.default_value);
      if (problem) issues.push({ path: `${at}.default_value`, message: problem });
      else if (!possible(def, o.default_value)) {
        issues.push({
          path: `${at}.default_value`,
          message: `Default value must be one of the possible values (${def.possible_values.map((pv) => show(pv.value)).join(", ")})`,
        });
      } else if (restricted && !restricted.includes(o.default_value)) {
        issues.push({
          path: `${at}.default_value`,
          message: `Default value must be one of the restricted values (${restricted.map(show).join(", ")})`,
        });
      }
    }
    if (o.locked) {
      const locked = o.default_value ?? def.default_value;
      if (locked === null) {
        issues.push({
          path: `${at}.locked`,
          message: `A locked variable needs a default value: set one here (${name} has no default of its own)`,
        });
      } else if (o.default_value === null && restricted && !restricted.includes(locked)) {
        issues.push({
          path: `${at}.locked`,
          message: `The locked value is the agent's default ${show(locked)}, which the restricted values exclude`,
        });
      }
    }
  }
  return issues;
}

/** The parts of a case a run substitutes `{{Name}}` in (the variables model effects). */
export type CaseTexts = {
  initial_message: string | null;
  persona: { type: string; description: string; instructions: string } | null;
  user_context: Record<string, unknown> | null;
  expected_outcomes: Record<string, unknown> | null;
};

/** Unknown `{{Name}}` placeholders, each at the field it is in (`persona.instructions`, `user_context.account.tier`, `expected_outcomes.LABEL`). */
export function casePlaceholderIssues(c: CaseTexts, definitions: readonly VariableDefinition[]): IssueList {
  const names = declaredNames(definitions);
  return [
    ...unknownPlaceholderIssues(c.initial_message, names, "initial_message"),
    ...(c.persona
      ? (["type", "description", "instructions"] as const).flatMap((k) => unknownPlaceholderIssues(c.persona![k], names, `persona.${k}`))
      : []),
    ...(c.user_context ? unknownPlaceholderIssuesIn(c.user_context, names, "user_context") : []),
    ...Object.entries(c.expected_outcomes ?? {}).flatMap(([label, v]) =>
      unknownPlaceholderIssuesIn(v, names, `expected_outcomes.${label}`),
    ),
  ];
}

/** Both checks for a whole case. */
export function caseAgentIssues(c: CaseTexts & { variables: TestCaseVariables }, definitions: readonly VariableDefinition[]): IssueList {
  return [...caseVariableIssues(c.variables, definitions), ...casePlaceholderIssues(c, definitions)];
}

/** A stored `variables` value in the documented key order (jsonb reorders keys); null when malformed or empty. */
export function toCaseVariables(v: unknown): TestCaseVariables {
  const parsed = testCaseVariablesSchema.safeParse(v);
  if (!parsed.success || !parsed.data) return null;
  return Object.fromEntries(
    Object.entries(parsed.data).map(([name, o]) => [
      name,
      { exposed: o.exposed, default_value: o.default_value, locked: o.locked, restricted_values: o.restricted_values },
    ]),
  );
}
