import "server-only";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { getSuite } from "@/lib/suites/service";
import { listSuiteTags } from "@/lib/test-cases/service";
import { getAgent } from "@/lib/agents/service";
import type { AgentToolOption } from "@/components/test-cases/types";

/** What the test case form needs besides the case: the suite, its tags and its agent's tools. */
export async function loadCaseFormData(ctx: WorkspaceContext, suiteId: string) {
  const [suite, suiteTags] = await Promise.all([getSuite(ctx, suiteId), listSuiteTags(ctx, suiteId)]);
  const agent = await getAgent(ctx, suite.agent_id);
  const tools: AgentToolOption[] = agent.tools.map((t) => ({ name: t.name, description: t.description }));
  return { suite, suiteTags, tools };
}
