import "server-only";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { listModelConfigOptions } from "@/lib/model-configs/service";
import { agentSuiteCounts, getAgent, listAgents } from "./service";

/** Page loaders for the agent pages: one call per page, scoped by the member's workspace. */

export async function loadAgentsPage(ctx: WorkspaceContext, cursor?: string) {
  const [{ data, nextCursor }, configs] = await Promise.all([listAgents(ctx, { cursor, limit: 50 }), listModelConfigOptions(ctx)]);
  const suites = await agentSuiteCounts(ctx, data.map((a) => a.id));
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
export type AgentListItem = Awaited<ReturnType<typeof loadAgentsPage>>["agents"][number];

export async function loadAgentFormPage(ctx: WorkspaceContext, agentId?: string) {
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
