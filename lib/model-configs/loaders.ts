import "server-only";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { ValidationError } from "@/lib/errors";
import { getModelConfig, listModelConfigs, modelConfigUsage } from "./service";
import type { ModelConfigListItem } from "./dto";
import { scopedLoader } from "@/lib/tenant-scope";

/** Page loaders: one call per page, scoped by the member's workspace. No secrets leave here. */

/** The model configuration list with usage counts; a stale or hand-edited cursor shows the first page. */
async function loadModelConfigsPageUnscoped(ctx: WorkspaceContext, cursor?: string) {
  const listPage = (c?: string) => listModelConfigs(ctx, { cursor: c, limit: 50 });
  const { data, nextCursor } = await listPage(cursor).catch((err: unknown) => {
    if (err instanceof ValidationError && cursor) return listPage();
    throw err;
  });
  const usage = await modelConfigUsage(
    ctx,
    data.map((c) => c.id),
  );
  return {
    configs: data.map((c): ModelConfigListItem => ({ ...c, usage: usage.get(c.id) ?? { agents: 0, suites: 0 } })),
    nextCursor,
    canManage: hasRole(ctx.role, "admin"),
  };
}

async function loadModelConfigPageUnscoped(ctx: WorkspaceContext, id: string) {
  const config = await getModelConfig(ctx, id);
  const usage = (await modelConfigUsage(ctx, [id])).get(id) ?? { agents: 0, suites: 0 };
  return { config, usage, canManage: hasRole(ctx.role, "admin") };
}

/** The new model configuration page: only admins get the form. */
async function loadNewModelConfigPageUnscoped(ctx: WorkspaceContext) {
  return { canManage: hasRole(ctx.role, "admin") };
}

// Each page loader runs its queries in the workspace's row-level scope (lib/tenant-scope.ts).
export const loadModelConfigsPage = scopedLoader(loadModelConfigsPageUnscoped);
export const loadModelConfigPage = scopedLoader(loadModelConfigPageUnscoped);
export const loadNewModelConfigPage = scopedLoader(loadNewModelConfigPageUnscoped);
