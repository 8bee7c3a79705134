import "server-only";
import { db } from "@/lib/db";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/workspaces/service";
import { ValidationError } from "@/lib/errors";
import type { VariableDefinition } from "@/lib/agents/schemas";
import { getSuite, listSuites, type SuiteListItem, type SuiteWithAgent } from "./service";
import { parseVariablesSchema } from "./variables";

/** Page loaders for the suite pages: one call per page, scoped by the member's workspace. */

export type AgentOption = { id: string; name: string; variables_schema: VariableDefinition[] };
export type ModelConfigOption = { id: string; name: string };

/** Agents of the workspace for selects (id, name and declared variables only). */
async function agentOptions(ctx: WorkspaceContext): Promise<AgentOption[]> {
  const rows = await db.agent.findMany({
    where: { workspaceId: ctx.workspaceId },
    select: { id: true, name: true, variablesSchema: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
  return rows.map((r) => ({ id: r.id, name: r.name, variables_schema: parseVariablesSchema(r.variablesSchema) }));
}

/** Model configurations for the judge select (no endpoint details, no secrets). */
async function modelConfigOptions(ctx: WorkspaceContext): Promise<ModelConfigOption[]> {
  return db.modelConfig.findMany({
    where: { workspaceId: ctx.workspaceId },
    select: { id: true, name: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
}

export type SuitesPageData = {
  suites: SuiteListItem[];
  nextCursor: string | null;
  agents: { id: string; name: string }[];
  agentId: string | null;
  canEdit: boolean;
};

export async function loadSuitesPage(ctx: WorkspaceContext, opts: { agent?: string; cursor?: string; deleted?: boolean }): Promise<SuitesPageData> {
  const agentId = opts.agent && isUuid(opts.agent) ? opts.agent : null;
  const [agents, page] = await Promise.all([
    db.agent.findMany({ where: { workspaceId: ctx.workspaceId }, select: { id: true, name: true }, orderBy: [{ name: "asc" }, { id: "asc" }] }),
    // A stale or hand-edited cursor falls back to the first page instead of an error page.
    listSuites(ctx, { agent_id: agentId ?? undefined, deleted: opts.deleted, cursor: opts.cursor }).catch((err: unknown) => {
      if (err instanceof ValidationError) return listSuites(ctx, { agent_id: agentId ?? undefined, deleted: opts.deleted });
      throw err;
    }),
  ]);
  return { suites: page.data, nextCursor: page.next_cursor, agents, agentId, canEdit: hasRole(ctx.role, "editor") };
}

export type SuiteFormData = {
  agents: AgentOption[];
  modelConfigs: ModelConfigOption[];
  suite: SuiteWithAgent | null;
  canEdit: boolean;
};

/** The suite form's options; with `suiteId`, the suite too (NotFoundError when deleted or foreign). */
export async function loadSuiteForm(ctx: WorkspaceContext, suiteId?: string): Promise<SuiteFormData> {
  const [agents, modelConfigs, suite] = await Promise.all([
    agentOptions(ctx),
    modelConfigOptions(ctx),
    suiteId ? getSuite(ctx, suiteId) : Promise.resolve(null),
  ]);
  return { agents, modelConfigs, suite, canEdit: hasRole(ctx.role, "editor") };
}
