import { pageContext } from "@/lib/auth/context";
import { hasRole } from "@/lib/auth/roles";
import { CASE_RESULT_STATUSES, caseResultListQuery, type CaseResultStatus } from "@/lib/runs/schemas";
import { changesSincePreviousRun, getRun, listCaseResults } from "@/lib/runs/service";
import { listSuiteTags } from "@/lib/test-cases/service";
import { RunView } from "@/components/runs/run-view";
import type { CaseTableFilters } from "@/components/runs/case-results-table";
import { CASE_PAGE_SIZE, toCaseResultPage } from "@/components/runs/case-result-row";
import { orNotFound, suiteInfo } from "./load";

export const metadata = { title: "Run" };

function filtersFrom(sp: Record<string, string | string[] | undefined>): CaseTableFilters {
  const status = typeof sp.status === "string" && (CASE_RESULT_STATUSES as readonly string[]).includes(sp.status) ? (sp.status as CaseResultStatus) : undefined;
  const tag = typeof sp.tag === "string" && sp.tag.trim() !== "" ? sp.tag.trim() : undefined;
  return { status, tag };
}

export default async function RunPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string; runId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { workspaceId, runId } = await params;
  const filters = filtersFrom(await searchParams);
  const ctx = await pageContext(workspaceId);
  const run = await orNotFound(getRun(ctx, runId));
  const [suite, results, changes] = await Promise.all([
    suiteInfo(ctx, run.suite_id),
    listCaseResults(ctx, run.id, caseResultListQuery.parse({ ...filters, limit: CASE_PAGE_SIZE })),
    changesSincePreviousRun(ctx, run.id),
  ]);
  const tags = suite.deleted ? [] : await listSuiteTags(ctx, suite.id).catch(() => []);
  return (
    <RunView
      workspaceId={workspaceId}
      initialRun={run}
      suite={suite}
      canEdit={hasRole(ctx.role, "editor")}
      tags={tags}
      initialResults={toCaseResultPage(results)}
      initialFilters={filters}
      initialChanges={changes}
    />
  );
}
