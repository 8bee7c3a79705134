import "server-only";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { ValidationError } from "@/lib/errors";
import { getSuite, listAgentNames, listSuiteFormOptions, listSuites } from "./service";
import type { AgentOption, ModelConfigOption, SuiteListItem, SuiteWithAgent } from "./dto";
import { scopedLoader } from "@/lib/tenant-scope";
import { FLAKY_WINDOW_RUNS, flakyCases, type FlakyCaseDto } from "@/lib/runs/trial-reads";

/** Page loaders for the suite pages: one call per page, scoped by the member's workspace. */

type SearchParams = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export type SuitesPageData = {
  suites: SuiteListItem[];
  nextCursor: string | null;
  agents: { id: string; name: string }[];
  agentId: string | null;
  /** The cursor of this page (from the URL), even when it was stale and the first page is shown. */
  cursor: string | undefined;
  canEdit: boolean;
  canLoadDemo: boolean;
};

async function suitesPage(ctx: WorkspaceContext, opts: { agent?: string; cursor?: string; deleted?: boolean }): Promise<SuitesPageData> {
  const agentId = opts.agent && isUuid(opts.agent) ? opts.agent : null;
  const [agents, page] = await Promise.all([
    listAgentNames(ctx),
    // A stale or hand-edited cursor falls back to the first page instead of an error page.
    listSuites(ctx, { agent_id: agentId ?? undefined, deleted: opts.deleted, cursor: opts.cursor }).catch((err: unknown) => {
      if (err instanceof ValidationError) return listSuites(ctx, { agent_id: agentId ?? undefined, deleted: opts.deleted });
      throw err;
    }),
  ]);
  return {
    suites: page.data,
    nextCursor: page.next_cursor,
    agents,
    agentId,
    cursor: opts.cursor,
    canEdit: hasRole(ctx.role, "editor"),
    canLoadDemo: hasRole(ctx.role, "admin"),
  };
}

/** The suite list, filtered by agent (`?agent=`), keyset-paginated (`?cursor=`). */
async function loadSuitesPageUnscoped(ctx: WorkspaceContext, searchParams: SearchParams): Promise<SuitesPageData> {
  return suitesPage(ctx, { agent: one(searchParams.agent), cursor: one(searchParams.cursor) });
}

/** The trash: deleted suites, keyset-paginated (`?cursor=`). */
async function loadSuiteTrashPageUnscoped(ctx: WorkspaceContext, searchParams: SearchParams): Promise<SuitesPageData> {
  const { cursor } = searchParams;
  return suitesPage(ctx, { deleted: true, cursor: typeof cursor === "string" ? cursor : undefined });
}

export type SuiteFormData = {
  agents: AgentOption[];
  modelConfigs: ModelConfigOption[];
  suite: SuiteWithAgent | null;
  canEdit: boolean;
};

/** The suite form's options; with `suiteId`, the suite too (NotFoundError when deleted or foreign). */
async function loadSuiteFormUnscoped(ctx: WorkspaceContext, suiteId?: string): Promise<SuiteFormData> {
  const [{ agents, modelConfigs }, suite] = await Promise.all([
    listSuiteFormOptions(ctx),
    suiteId ? getSuite(ctx, suiteId) : Promise.resolve(null),
  ]);
  return { agents, modelConfigs, suite, canEdit: hasRole(ctx.role, "editor") };
}

/** The suite settings page: the form data with the (live) suite. */
async function loadSuiteSettingsPageUnscoped(ctx: WorkspaceContext, suiteId: string) {
  const data = await loadSuiteForm(ctx, suiteId);
  return { ...data, suite: data.suite! };
}

/**
 * The new suite page: the form's options and the agent to preselect — the one in `?agent=` when
 * it exists, else the only agent, else none.
 */
async function loadNewSuitePageUnscoped(ctx: WorkspaceContext, searchParams: SearchParams) {
  const data = await loadSuiteForm(ctx);
  const { agent } = searchParams;
  const defaultAgentId =
    typeof agent === "string" && data.agents.some((a) => a.id === agent) ? agent : data.agents.length === 1 ? data.agents[0]!.id : null;
  return { ...data, defaultAgentId };
}

/** The suite's "Flaky cases" card: the most flip-prone cases over its latest history runs, and how many runs that covers. */
async function loadSuiteFlakyCasesUnscoped(ctx: WorkspaceContext, suiteId: string): Promise<{ cases: FlakyCaseDto[]; windowRuns: number }> {
  return { cases: await flakyCases(ctx, suiteId), windowRuns: FLAKY_WINDOW_RUNS };
}

// Each page loader runs its queries in the workspace's row-level scope (lib/tenant-scope.ts).
export const loadSuitesPage = scopedLoader(loadSuitesPageUnscoped);
export const loadSuiteTrashPage = scopedLoader(loadSuiteTrashPageUnscoped);
export const loadSuiteForm = scopedLoader(loadSuiteFormUnscoped);
export const loadSuiteSettingsPage = scopedLoader(loadSuiteSettingsPageUnscoped);
export const loadNewSuitePage = scopedLoader(loadNewSuitePageUnscoped);
export const loadSuiteFlakyCases = scopedLoader(loadSuiteFlakyCasesUnscoped);
