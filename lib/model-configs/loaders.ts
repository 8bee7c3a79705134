import "server-only";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { getModelConfig, listModelConfigs, modelConfigUsage } from "./service";

/** Page loaders: one call per page, scoped by the member's workspace. No secrets leave here. */

export async function loadModelConfigsPage(ctx: WorkspaceContext, cursor?: string) {
  const { data, nextCursor } = await listModelConfigs(ctx, { cursor, limit: 50 });
  const usage = await modelConfigUsage(ctx, data.map((c) => c.id));
  return {
    configs: data.map((c) => ({ ...c, usage: usage.get(c.id) ?? { agents: 0, suites: 0 } })),
    nextCursor,
    canManage: hasRole(ctx.role, "admin"),
  };
}

export async function loadModelConfigPage(ctx: WorkspaceContext, id: string) {
  const config = await getModelConfig(ctx, id);
  const usage = (await modelConfigUsage(ctx, [id])).get(id) ?? { agents: 0, suites: 0 };
  return { config, usage, canManage: hasRole(ctx.role, "admin") };
}
