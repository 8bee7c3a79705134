import "server-only";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { ValidationError } from "@/lib/errors";
import { listModelConfigOptions } from "@/lib/model-configs/service";
import { agentSuiteCounts, getAgent, listAgents } from "./service";
import type { AgentListItem } from "./dto";
import { scopedLoader } from "@/lib/tenant-scope";

/** Page loaders for the agent pages: one call per page, scoped by the member's workspace. */

/** The agent list; a stale or hand-edited cursor shows the first page instead of an error page. */
async function loadAgentsPageUnscoped(
  ctx: WorkspaceContext,
  cursor?: string,
): Promise<{ agents: AgentListItem[]; nextCursor: string | null; canEdit: boolean }> {
  const listPage = (c?: string) => listAgents(ctx, { cursor: c, limit: 50 });
  const [{ data, nextCursor }, configs] = await Promise.all([
    listPage(cursor).catch((err: unknown) => {
      if (err instanceof ValidationError && cursor) return listPage();
      throw err;
    }),
    listModelConfigOptions(ctx),
  ]);
  const suites = await agentSuiteCounts(
    ctx,
    data.map((a) => a.id),
  );
  const configNames = new Map(configs.map((c) => [c.id, c.name]));
  return {
    agents: data.map((a) => ({
      id: a.id,
      name: a.name,
      description: a.description,
      kind: a.kind,
      modelConfigName: a.model_config_id ? (configNames.get(a.model_config_id) ?? null) : null,
      httpUrl: a.http?.url ?? null,
      toolCount: a.tools.length,
      variableCount: a.variables_schema.length,
      suiteCount: suites.get(a.id) ?? 0,
      updatedAt: a.updated_at,
    })),
    nextCursor,
    canEdit: hasRole(ctx.role, "editor"),
  };
}

async function loadAgentFormPageUnscoped(ctx: WorkspaceContext, agentId?: string) {
  const [agent, modelConfigs, suites] = await Promise.all([
    agentId ? getAgent(ctx, agentId) : Promise.resolve(undefined),
    listModelConfigOptions(ctx),
    agentId ? agentSuiteCounts(ctx, [agentId]) : Promise.resolve(new Map<string, number>()),
  ]);
  return {
    agent,
    modelConfigs,
    suiteCount: agentId ? (suites.get(agentId) ?? 0) : 0,
    canEdit: hasRole(ctx.role, "editor"),
    canCreateModelConfig: hasRole(ctx.role, "admin"),
  };
}

/** The agent page: the form data with the agent (NotFoundError when it is not in the workspace). */
async function loadAgentPageUnscoped(ctx: WorkspaceContext, agentId: string) {
  const page = await loadAgentFormPage(ctx, agentId);
  return { ...page, agent: page.agent! };
}

// Each page loader runs its queries in the workspace's row-level scope (lib/tenant-scope.ts).
export const loadAgentsPage = scopedLoader(loadAgentsPageUnscoped);
export const loadAgentFormPage = scopedLoader(loadAgentFormPageUnscoped);
export const loadAgentPage = scopedLoader(loadAgentPageUnscoped);
