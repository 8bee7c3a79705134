import "server-only";
import { redirect } from "next/navigation";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { getAgent } from "@/lib/agents/service";
import { getSuite } from "@/lib/suites/service";
import { testCaseListQuery } from "./schemas";
import { getTestCase, listSuiteTags, listTestCaseIds, listTestCases } from "./service";
import { hasFilters, listHref, parseListParams, type ListFilters } from "./list-url";
import type { CaseFormSuite, CaseRow, TestCaseDto } from "./dto";
import { scopedLoader } from "@/lib/tenant-scope";
import { getScheduleStatus } from "@/lib/runs/scheduler";
import { runVariablesContext } from "@/lib/presets/service";
import { recentCaseResults, type CaseRecentResults } from "./last-verdicts";

/** Page loaders for the suite page (its test cases) and the test case form pages. */

type SearchParams = Record<string, string | string[] | undefined>;

const PAGE_SIZE = 50;
const dateFormat = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });
const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);

function listQuery(f: ListFilters, cursor?: string, limit = PAGE_SIZE) {
  return testCaseListQuery.parse({ tag: f.tags, tag_match: f.match, status: f.status, difficulty: f.difficulty, q: f.q, cursor, limit });
}

function toRow(c: TestCaseDto, results: CaseRecentResults | undefined): CaseRow {
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    difficulty: c.difficulty,
    tags: c.tags,
    multi_turn: c.persona !== null,
    updated_at: c.updated_at,
    updated_label: dateFormat.format(new Date(c.updated_at)),
    last_verdict: results?.last_verdict ?? null,
    recent: results?.recent ?? [],
  };
}

/**
 * The suite page: the suite, one page of its cases (filters and page from the URL), its tags and,
 * for editors without filters, every case id in order (for drag-and-drop reordering). A stale or
 * hand-edited cursor redirects to the first page of the same filters.
 */
async function loadSuitePageUnscoped(ctx: WorkspaceContext, suiteId: string, searchParams: SearchParams) {
  const canEdit = hasRole(ctx.role, "editor");
  const { filters, page } = parseListParams(searchParams);
  const filtered = hasFilters(filters);
  // Sent together: the page waits for the slowest query, not for their sum.
  const [suite, list, suiteTags, schedule, runVariables] = await Promise.all([
    getSuite(ctx, suiteId),
    listTestCases(ctx, suiteId, listQuery(filters, page.cursor), filters.sort ?? "order"),
    listSuiteTags(ctx, suiteId),
    // The next scheduled run (workspace time zone) and the last scheduled run's outcome.
    getScheduleStatus(ctx, suiteId),
    // The variables model: the run dialogs' typed variable inputs and presets.
    runVariablesContext(ctx, suiteId),
  ]).catch((err: unknown) => {
    if (err instanceof ValidationError && page.cursor) redirect(listHref(`/w/${ctx.workspaceId}/suites/${suiteId}`, filters));
    throw err;
  });
  // Reordering needs the list in run order: unfiltered and not sorted by verdict.
  const reorderable = canEdit && !filtered && !filters.sort;
  const [orderedIds, results] = await Promise.all([
    reorderable ? (!page.cursor && !list.next_cursor ? list.data.map((c) => c.id) : listTestCaseIds(ctx, suiteId)) : null,
    // The last verdict and latest results of this page's cases only.
    recentCaseResults(
      ctx,
      list.data.map((c) => c.id),
    ),
  ]);
  return {
    suite,
    rows: list.data.map((c) => toRow(c, results.get(c.id))),
    counts: list.counts,
    nextCursor: list.next_cursor,
    suiteTags,
    orderedIds,
    filters,
    page,
    filtered,
    canEdit,
    notice: one(searchParams.notice),
    deletedId: one(searchParams.deleted),
    schedule,
    runVariables,
  };
}

/** What a test case page needs besides the case: the suite, its tags, the form's suite (its agent's tools and variables) and presets. */
async function caseFormData(ctx: WorkspaceContext, suiteId: string) {
  const [suite, suiteTags, runVariables] = await Promise.all([
    getSuite(ctx, suiteId),
    listSuiteTags(ctx, suiteId),
    runVariablesContext(ctx, suiteId),
  ]);
  const agent = await getAgent(ctx, suite.agent_id);
  const form: CaseFormSuite = {
    workspaceId: ctx.workspaceId,
    suiteId,
    tags: suiteTags,
    tools: agent.tools.map((t) => ({ name: t.name, description: t.description })),
    variableDefinitions: runVariables.definitions,
  };
  return { suite, suiteTags, runVariables, form };
}

/** The new test case page. */
async function loadNewTestCasePageUnscoped(ctx: WorkspaceContext, suiteId: string) {
  return { ...(await caseFormData(ctx, suiteId)), canEdit: hasRole(ctx.role, "editor") };
}

/** The test case page; NotFoundError when the case belongs to another suite. */
async function loadTestCasePageUnscoped(ctx: WorkspaceContext, suiteId: string, caseId: string, searchParams: SearchParams) {
  const [testCase, data] = await Promise.all([getTestCase(ctx, caseId), caseFormData(ctx, suiteId)]);
  if (testCase.suite_id !== suiteId) throw new NotFoundError("Test case");
  return { testCase, ...data, canEdit: hasRole(ctx.role, "editor"), notice: one(searchParams.notice) };
}

// Each page loader runs its queries in the workspace's row-level scope (lib/tenant-scope.ts).
export const loadSuitePage = scopedLoader(loadSuitePageUnscoped);
export const loadNewTestCasePage = scopedLoader(loadNewTestCasePageUnscoped);
export const loadTestCasePage = scopedLoader(loadTestCasePageUnscoped);
