/**
 * The variables model checks that need the suite's agent: loads the agent's variable definitions and
 * refuses a case whose `variables` or `{{Name}}` placeholders do not fit them (the rules are in
 * ./variables.ts, shared with the case form).
 */
import "server-only";
import { db, type Tx } from "@/lib/db";
import { NotFoundError, ValidationError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { variableDefinitionSchema, type VariableDefinition } from "@/lib/agents/schemas";
import { caseAgentIssues } from "@/lib/test-cases/variables";
import type { TestCaseData } from "@/lib/test-cases/schemas";

/** The variables the suite's agent declares (a malformed stored list counts as none). */
export async function suiteVariableDefinitions(
  ctx: WorkspaceContext,
  suiteId: string,
  client: Tx | typeof db = db,
): Promise<VariableDefinition[]> {
  const suite = await client.suite.findFirst({
    where: { id: suiteId, workspaceId: ctx.workspaceId },
    select: { agent: { select: { variablesSchema: true } } },
  });
  if (!suite) throw new NotFoundError("Suite");
  const parsed = variableDefinitionSchema.array().safeParse(suite.agent.variablesSchema);
  return parsed.success ? parsed.data : [];
}

/** ValidationError with every variable and placeholder issue of the case. */
export function assertCaseFitsAgent(data: TestCaseData, definitions: readonly VariableDefinition[]) {
  const issues = caseAgentIssues(data, definitions);
  if (issues.length) throw new ValidationError("Please fix the highlighted fields", issues);
}
