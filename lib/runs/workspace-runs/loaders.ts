import "server-only";
import { z } from "zod";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { scopedLoader } from "@/lib/tenant-scope";
import type { SearchParams } from "@/lib/pages/props";
import { workspaceRunFilters } from "@/lib/runs/schemas";
import { listRunSuiteOptions, listWorkspaceRunsPage, type WorkspaceRunFilters } from "./service";

export const WORKSPACE_RUNS_PAGE_SIZE = 50;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const pageNumber = z.coerce.number().int().min(1).max(100_000);

/**
 * The Runs page's filters from the URL (`suite`, `status`, `trigger`, `metadata`, `kind`, `page`).
 * A value that does not parse is left out of the query and reported on its field, so a hand-edited
 * link shows every run with the reason rather than an error page.
 */
export function workspaceRunsPageFilters(sp: SearchParams) {
  const raw = {
    suite_id: first(sp.suite) || undefined,
    status: first(sp.status) || undefined,
    trigger: first(sp.trigger) || undefined,
    metadata: first(sp.metadata) || undefined,
    kind: first(sp.kind) || undefined,
  };
  const filters: WorkspaceRunFilters = {};
  const errors: Record<string, string> = {};
  for (const key of Object.keys(raw) as (keyof typeof raw)[]) {
    const parsed = workspaceRunFilters[key].safeParse(raw[key]);
    if (parsed.success) Object.assign(filters, { [key]: parsed.data });
    else errors[key] = parsed.error.issues[0]?.message ?? "Invalid value";
  }
  const page = pageNumber.safeParse(first(sp.page) ?? 1);
  return { filters, raw, errors, page: page.success ? page.data : 1 };
}

/** The Runs page: one page of the workspace's runs under the URL's filters, with the total and the suite filter's options. */
async function loadWorkspaceRunsPageUnscoped(ctx: WorkspaceContext, sp: SearchParams) {
  const { filters, raw, errors, page } = workspaceRunsPageFilters(sp);
  const [list, suites] = await Promise.all([
    listWorkspaceRunsPage(ctx, filters, { offset: (page - 1) * WORKSPACE_RUNS_PAGE_SIZE, limit: WORKSPACE_RUNS_PAGE_SIZE }),
    listRunSuiteOptions(ctx),
  ]);
  return { ...list, suites, raw, errors, page, pageSize: WORKSPACE_RUNS_PAGE_SIZE };
}

// The page loader runs its queries in the workspace's row-level scope (lib/tenant-scope.ts).
export const loadWorkspaceRunsPage = scopedLoader(loadWorkspaceRunsPageUnscoped);
