import "server-only";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { listMembers } from "@/lib/workspaces/members";
import { ValidationError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { scopedLoader } from "@/lib/tenant-scope";
import type { SearchParams } from "@/lib/pages/props";
import { suiteFilterOptions } from "@/lib/suites/service";
import { suiteCalibration } from "./calibration";
import { countMyOpenItems, getReviewItem, listReviewItems, neighbourItems } from "./service";
import { REVIEW_ITEM_STATUSES, type ReviewItemListQuery, type ReviewItemStatus } from "./schemas";

export const REVIEW_PAGE_SIZE = 25;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The Review page's filters from the URL: `status` (open by default; `all` for every state),
 * `suite`, `run`, `mine=1` (assigned to me), `todo=1` (waiting for my label), `overturned=1`
 * (the disagreements), `cursor`. The labelling view keeps them for its next/previous.
 */
export function reviewQueueFilters(sp: SearchParams) {
  const status = first(sp.status);
  const suite = first(sp.suite);
  const run = first(sp.run);
  return {
    status: (REVIEW_ITEM_STATUSES as readonly string[]).includes(status ?? "")
      ? (status as ReviewItemStatus)
      : status === "all"
        ? ("all" as const)
        : ("open" as const),
    suite: suite && isUuid(suite) ? suite : null,
    run: run && isUuid(run) ? run : null,
    mine: first(sp.mine) === "1",
    todo: first(sp.todo) === "1",
    overturned: first(sp.overturned) === "1",
    cursor: first(sp.cursor) ?? null,
  };
}
export type ReviewQueueFilters = ReturnType<typeof reviewQueueFilters>;

function queryOf(f: ReviewQueueFilters, limit: number): ReviewItemListQuery {
  return {
    limit,
    ...(f.status === "all" ? {} : { status: f.status }),
    ...(f.suite ? { suite_id: f.suite } : {}),
    ...(f.run ? { run_id: f.run } : {}),
    ...(f.mine ? { assigned_to: "me" as const } : {}),
    todo: f.todo,
    overturned: f.overturned,
  };
}

/** The Review page: one page of the queue under the URL's filters (a stale cursor shows the first page). */
async function loadReviewQueueUnscoped(ctx: WorkspaceContext, sp: SearchParams) {
  const filters = reviewQueueFilters(sp);
  const query = queryOf(filters, REVIEW_PAGE_SIZE);
  const page = await listReviewItems(ctx, { ...query, cursor: filters.cursor ?? undefined }).catch((err: unknown) => {
    if (err instanceof ValidationError && filters.cursor) return listReviewItems(ctx, query);
    throw err;
  });
  return { items: page.data, nextCursor: page.next_cursor, filters };
}

/** The labelling view: the item (blind until labelled) and its place in the queue the reviewer came from. */
async function loadReviewItemUnscoped(ctx: WorkspaceContext, id: string, sp: SearchParams) {
  const filters = reviewQueueFilters(sp);
  const [item, around] = await Promise.all([getReviewItem(ctx, id), neighbourItems(ctx, id, queryOf(filters, 1))]);
  return { item, around, filters };
}

/** The nav's badge: open items waiting for the member's label. */
async function loadReviewCountUnscoped(ctx: WorkspaceContext) {
  return { open: await countMyOpenItems(ctx) };
}

/** The suite page's calibration card and the calibration page. */
async function loadSuiteCalibrationUnscoped(ctx: WorkspaceContext, suiteId: string) {
  return suiteCalibration(ctx, suiteId);
}

/** The Review page's suite filter: suites of the workspace that have review items. */
async function loadReviewSuiteOptionsUnscoped(ctx: WorkspaceContext): Promise<{ id: string; name: string }[]> {
  return suiteFilterOptions(ctx, { reviewItems: { some: {} } });
}

/**
 * The labelling view's assignee select: the workspace's members (name, else email), for editors
 * and above, who may assign; nobody else gets the list.
 */
async function loadReviewMemberOptionsUnscoped(ctx: WorkspaceContext): Promise<{ id: string; name: string }[]> {
  if (!hasRole(ctx.role, "editor")) return [];
  return (await listMembers(ctx)).map((m) => ({ id: m.userId, name: m.name || m.email }));
}

// Each loader runs its queries in the workspace's row-level scope (lib/tenant-scope.ts).
export const loadReviewQueue = scopedLoader(loadReviewQueueUnscoped);
export const loadReviewItem = scopedLoader(loadReviewItemUnscoped);
export const loadReviewCount = scopedLoader(loadReviewCountUnscoped);
export const loadSuiteCalibration = scopedLoader(loadSuiteCalibrationUnscoped);
export const loadReviewSuiteOptions = scopedLoader(loadReviewSuiteOptionsUnscoped);
export const loadReviewMemberOptions = scopedLoader(loadReviewMemberOptionsUnscoped);
