import "server-only";
import { redirect } from "next/navigation";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { getSuite, getSuiteInfo } from "@/lib/suites/service";
import { getCaseResult } from "@/lib/runs/service";
import type { CaseResultDetail } from "@/lib/runs/dto";
import { scopedLoader } from "@/lib/tenant-scope";
import { pairListQuery } from "./schemas";
import { comparisonChartData, getComparison, getPair, listComparisons, listPairs } from "./service";

/** Page loaders of the comparison pages: one call per page, scoped by the member's workspace. */

type SearchParams = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Rows per page of the suite's comparison list and of the pairs table. */
export const COMPARISON_PAGE_SIZE = 20;
export const PAIR_PAGE_SIZE = 50;

/** The comparison page: the comparison, its suite, the chart points and the first page of pairs. */
async function loadComparisonPageUnscoped(ctx: WorkspaceContext, comparisonId: string) {
  const comparison = await getComparison(ctx, comparisonId);
  const [suite, chart, pairs] = await Promise.all([
    getSuiteInfo(ctx, comparison.suite_id),
    comparisonChartData(ctx, comparison.id),
    listPairs(ctx, comparison.id, pairListQuery.parse({ limit: PAIR_PAGE_SIZE, sort: "flipped" })),
  ]);
  return { comparison, suite, chart, pairs, canEdit: hasRole(ctx.role, "editor") };
}

/** A suite's comparisons, newest first (`?cursor=`); a stale or hand-edited cursor goes back to the first page. */
async function loadSuiteComparisonsPageUnscoped(ctx: WorkspaceContext, suiteId: string, searchParams: SearchParams) {
  const cursor = one(searchParams.cursor);
  const [suite, page] = await Promise.all([
    getSuite(ctx, suiteId),
    listComparisons(ctx, suiteId, { cursor, limit: COMPARISON_PAGE_SIZE }),
  ]).catch((err: unknown) => {
    if (err instanceof ValidationError && cursor) redirect(`/w/${ctx.workspaceId}/suites/${suiteId}/comparisons`);
    throw err;
  });
  return { suite, comparisons: page.data, nextCursor: page.next_cursor, cursor: cursor ?? null, canEdit: hasRole(ctx.role, "editor") };
}

async function caseResultOrNull(ctx: WorkspaceContext, id: string | null | undefined): Promise<CaseResultDetail | null> {
  if (!id) return null;
  return getCaseResult(ctx, id).catch((err: unknown) => {
    if (err instanceof NotFoundError) return null;
    throw err;
  });
}

/** The pair view: the pair, both arms' case results (transcripts, checks, verdicts) and the comparison's header data. */
async function loadComparisonPairPageUnscoped(ctx: WorkspaceContext, comparisonId: string, rawIndex: string) {
  const index = Number(rawIndex);
  if (!/^\d{1,9}$/.test(rawIndex) || !Number.isSafeInteger(index)) throw new NotFoundError("Pair");
  const comparison = await getComparison(ctx, comparisonId);
  const pair = await getPair(ctx, comparison.id, index);
  const [suite, baseline, variant] = await Promise.all([
    getSuiteInfo(ctx, comparison.suite_id),
    caseResultOrNull(ctx, pair.baseline?.case_result_id),
    caseResultOrNull(ctx, pair.variant?.case_result_id),
  ]);
  return { comparison, suite, pair, baseline, variant };
}

// Each page loader runs its queries in the workspace's row-level scope (lib/tenant-scope.ts).
export const loadComparisonPage = scopedLoader(loadComparisonPageUnscoped);
export const loadSuiteComparisonsPage = scopedLoader(loadSuiteComparisonsPageUnscoped);
export const loadComparisonPairPage = scopedLoader(loadComparisonPairPageUnscoped);
