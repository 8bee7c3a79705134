import type { FieldValues, Resolver } from "react-hook-form";
import type { VariableDefinition } from "@/lib/agents/schemas";
import type { TestCaseData } from "@/lib/test-cases/schemas";
import { caseAgentIssues } from "@/lib/test-cases/variables";
import { issuesToFieldErrors } from "./case-variable-rows";

/**
 * Runs the variables model checks that need the agent (declared variables, typed defaults, restricted
 * values, locks, unknown `{{Name}}` placeholders) after the case schema passed, so the form
 * shows at each field what the server would refuse.
 */
export function withAgentChecks<V extends FieldValues & { expected_outcomes: { label: string }[] }>(
  resolver: Resolver<V, unknown, TestCaseData>,
  definitions: readonly VariableDefinition[],
): Resolver<V, unknown, TestCaseData> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    if (Object.keys(result.errors).length > 0) return result;
    const issues = caseAgentIssues(result.values as TestCaseData, definitions);
    if (issues.length === 0) return result;
    const labels = values.expected_outcomes.map((o) => o.label);
    return { values: {}, errors: issuesToFieldErrors<V>(issues, labels) };
  };
}
