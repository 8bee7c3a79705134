import "server-only";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { NotFoundError, ValidationError } from "@/lib/errors";
import type { SearchParams } from "@/lib/pages/props";
import { getSuite } from "@/lib/suites/service";
import { listMembers } from "@/lib/workspaces/members";
import { scopedLoader } from "@/lib/tenant-scope";
import { suiteCalibration, suiteJudgeStatus } from "./calibration";
import { listReviewItems, reviewItemsOfResults } from "./service";

/**
 * Human review as the suite, run and case pages show it: the suite's calibration page (the judge's
 * agreement per fingerprint and the disagreements to look at), and a case result's review item
 * with the name of whoever gave its human verdict. The Review queue's own loaders are ./loaders.ts.
 */

/** Disagreements shown per page of the calibration page. */
export const DISAGREEMENTS_PAGE_SIZE = 25;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The suite's review items whose human verdict overturned the judge, newest first (a stale cursor shows the first page). */
async function suiteDisagreements(ctx: WorkspaceContext, suiteId: string, cursor: string | null) {
  const query = { suite_id: suiteId, overturned: true, todo: false, limit: DISAGREEMENTS_PAGE_SIZE };
  const page = await listReviewItems(ctx, { ...query, cursor: cursor ?? undefined }).catch((err: unknown) => {
    if (err instanceof ValidationError && cursor) return listReviewItems(ctx, query);
    throw err;
  });
  return { items: page.data, nextCursor: page.next_cursor, cursor };
}

/** The calibration page: the suite, its judge's calibration (current judge first, then past ones) and one page of disagreements. */
async function loadCalibrationPageUnscoped(ctx: WorkspaceContext, suiteId: string, sp: SearchParams) {
  const suite = await getSuite(ctx, suiteId);
  const [calibration, disagreements] = await Promise.all([
    suiteCalibration(ctx, suiteId),
    suiteDisagreements(ctx, suiteId, first(sp.cursor) ?? null),
  ]);
  return { suite, calibration, disagreements };
}

/** The run page's badge: the suite judge's status, or null when the suite is gone. */
async function loadJudgeStatusUnscoped(ctx: WorkspaceContext, suiteId: string) {
  // A deleted suite's runs stay readable; its calibration is simply not shown.
  return suiteJudgeStatus(ctx, suiteId).catch((err: unknown) => {
    if (err instanceof NotFoundError) return null;
    throw err;
  });
}

/**
 * The case view's review panel: the result's review item (to link to it instead of sending it
 * again), the name of the member whose label or resolution gave the human verdict, and whether
 * the member may send results to review.
 */
async function loadCaseReviewUnscoped(ctx: WorkspaceContext, caseResultId: string, humanVerdictById: string | null) {
  const [items, members] = await Promise.all([
    reviewItemsOfResults(ctx, [caseResultId]),
    humanVerdictById ? listMembers(ctx) : Promise.resolve([]),
  ]);
  const by = humanVerdictById ? members.find((m) => m.userId === humanVerdictById) : undefined;
  return {
    item: items.get(caseResultId) ?? null,
    verdictBy: by ? by.name || by.email : null,
    canSend: hasRole(ctx.role, "editor"),
  };
}

// Each loader runs its queries in the workspace's row-level scope (lib/tenant-scope.ts).
export const loadCalibrationPage = scopedLoader(loadCalibrationPageUnscoped);
export const loadJudgeStatus = scopedLoader(loadJudgeStatusUnscoped);
export const loadCaseReview = scopedLoader(loadCaseReviewUnscoped);
