import "server-only";
import { redirect } from "next/navigation";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { getSuite } from "@/lib/suites/service";
import { listSuiteTags } from "@/lib/test-cases/service";
import { STABILITIES } from "./schemas";
import { isUuid } from "@/lib/ids";
import { changesOn, getRun, runPageHeadOn } from "./service";
import { caseHistory, listRunCases } from "./trial-reads";
import { caseTrialsOn } from "./case-trials";
import { caseResultDetailOn, scopedPoolRead } from "./case-results";
import { caseNeighboursOn, caseTableOn } from "./case-table";
import { caseTableLocation, caseTableQueryOf } from "./case-table-location";
import { sharedAnswer } from "./live-answers";
import { caseTableKey, isLiveRunStatus } from "./live-reads";
import { getSuiteAnalytics, listSuiteRunsPage } from "./analytics";
import { CASE_PAGE_SIZE, RUN_CASES_PAGE_SIZE, type RunCasesFilters } from "./dto";
import { DEFAULT_TREND_WINDOW, HISTORY_PAGE_SIZE, historyHref, parseSuiteRunsLocation } from "./suite-runs-location";
import { scopedLoader } from "@/lib/tenant-scope";

/** Page loaders for the run pages: one call per page, scoped by the member's workspace. */

type SearchParams = Record<string, string | string[] | undefined>;

/** The per-case table's filter from the URL (runs with several trials). */
function runCasesFilters(sp: SearchParams): RunCasesFilters {
  const stability =
    typeof sp.stability === "string" && (STABILITIES as readonly string[]).includes(sp.stability)
      ? (sp.stability as RunCasesFilters["stability"])
      : undefined;
  return { stability };
}

/** The run a re-run repeated, with its number ("Re-run of #3"); null when there is none or it is gone. */
async function rerunOrigin(ctx: WorkspaceContext, rerunOf: string | null) {
  if (!rerunOf) return null;
  try {
    const original = await getRun(ctx, rerunOf);
    return { id: original.id, number: original.number };
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

/**
 * The run page: the run, its suite, the suite's tags, the first page of case results (filtered
 * from the URL), the verdict changes and the run's baseline state. All of it in one read-only
 * transaction on the raw pg pool (`scopedPoolRead`, the workspace declared for row-level
 * security, every statement filtered by the workspace too). The page of a live run is opened by
 * many viewers at once: while the run is live they share one read of it, at most `maxAgeMs` old
 * (./live-answers.ts; the page passes what the browser's request accepts; by default a fresh read).
 */
async function loadRunPageUnscoped(ctx: WorkspaceContext, runId: string, searchParams: SearchParams, maxAgeMs = 0) {
  const filters = caseTableLocation(searchParams);
  const query = caseTableQueryOf(filters, CASE_PAGE_SIZE);
  if (!isUuid(runId)) throw new NotFoundError("Run");
  const { value } = await sharedAnswer(
    `${ctx.workspaceId}:run-page:${runId}:${caseTableKey(query)}`,
    { runId, maxAgeMs, live: (page) => isLiveRunStatus(page.run.status) },
    () =>
      scopedPoolRead(ctx.workspaceId, async (client) => {
        const head = await runPageHeadOn(client, ctx, runId);
        const results = await caseTableOn(client, ctx, runId, query);
        const changes = await changesOn(client, ctx, runId);
        return { ...head, results, changes };
      }),
  );
  const { run, suite, tags, baseline, results, changes } = value;
  const canEdit = hasRole(ctx.role, "editor");
  // Several trials: the first page of the per-case table too (its strip of trials, stability).
  const caseFilters = runCasesFilters(searchParams);
  const [cases, rerunOf] = await Promise.all([
    run.trials > 1 ? listRunCases(ctx, runId, { ...caseFilters, limit: RUN_CASES_PAGE_SIZE }) : Promise.resolve(null),
    rerunOrigin(ctx, run.rerun_of),
  ]);
  return {
    run,
    suite,
    tags,
    results,
    filters,
    cases,
    caseFilters,
    rerunOf,
    changes,
    canEdit,
    baseline: { ...baseline, canPin: canEdit },
  };
}

/** How many of a case's latest results the case view's history strip shows. */
export const CASE_HISTORY_SIZE = 20;

/**
 * One case result of a run (NotFoundError when it belongs to another run) with the run's suite,
 * when the run has several trials the case's other trials in it, and its neighbours in the run
 * page's table as the URL's query left it (filters, search, order: the previous/next failure
 * links): one read. Then the case's history across runs (the strip and its flip rate), when it
 * still has a test case.
 */
async function loadCaseResultPageUnscoped(ctx: WorkspaceContext, runId: string, caseResultId: string, searchParams: SearchParams = {}) {
  if (!isUuid(runId)) throw new NotFoundError("Run");
  const list = caseTableLocation(searchParams);
  const page = await scopedPoolRead(ctx.workspaceId, async (client) => {
    const detail = await caseResultDetailOn(client, ctx, caseResultId);
    if (detail.run_id !== runId) throw new NotFoundError("Case result");
    const { suite, run } = await runPageHeadOn(client, ctx, runId);
    const trials = run.trials > 1 ? await caseTrialsOn(client, ctx, caseResultId) : [];
    const neighbours = await caseNeighboursOn(client, ctx, runId, caseResultId, caseTableQueryOf(list, CASE_PAGE_SIZE));
    return { detail, suite, runNumber: run.number, trials, list, neighbours };
  });
  const history = page.detail.test_case_id
    ? await caseHistory(ctx, page.detail.test_case_id, CASE_HISTORY_SIZE).catch((err: unknown) => {
        if (err instanceof NotFoundError) return null;
        throw err;
      })
    : null;
  return { ...page, history };
}

/**
 * A suite's run history page: the suite, its analytics over the default trend window (ordinary
 * runs only), one page of runs (the history or the experiments, location from the URL) and, for
 * editors, the tags to start a run with. A stale or hand-edited cursor redirects to the first page
 * of the same kind and status filter.
 */
async function loadSuiteRunsPageUnscoped(ctx: WorkspaceContext, suiteId: string, searchParams: SearchParams) {
  const location = parseSuiteRunsLocation(searchParams);
  const canEdit = hasRole(ctx.role, "editor");
  const [suite, analytics, runs, tags] = await Promise.all([
    getSuite(ctx, suiteId),
    getSuiteAnalytics(ctx, suiteId, { runs: DEFAULT_TREND_WINDOW }),
    listSuiteRunsPage(ctx, suiteId, { kind: location.kind, cursor: location.cursor, status: location.status, limit: HISTORY_PAGE_SIZE }),
    canEdit ? listSuiteTags(ctx, suiteId) : Promise.resolve([]),
  ]).catch((err: unknown) => {
    if (err instanceof ValidationError && location.cursor)
      redirect(historyHref(`/w/${ctx.workspaceId}/suites/${suiteId}/runs`, { kind: location.kind, prev: [], status: location.status }));
    throw err;
  });
  return { suite, analytics, runs, tags, location, canEdit };
}

// Each page loader runs its queries in the workspace's row-level scope (lib/tenant-scope.ts).
export const loadRunPage = scopedLoader(loadRunPageUnscoped);
export const loadCaseResultPage = scopedLoader(loadCaseResultPageUnscoped);
export const loadSuiteRunsPage = scopedLoader(loadSuiteRunsPageUnscoped);
