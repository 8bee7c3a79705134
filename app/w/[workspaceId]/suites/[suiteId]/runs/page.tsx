import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import type { Metadata } from "next";
import { pageContext } from "@/lib/auth/context";
import { hasRole } from "@/lib/auth/roles";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { getSuite } from "@/lib/suites/service";
import { listSuiteTags } from "@/lib/test-cases/service";
import { getSuiteAnalytics, listSuiteRunsPage } from "@/lib/runs/analytics";
import { PageHeader } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { StartRunButton } from "@/components/runs/start-run-button";
import { SuiteRunsView } from "@/components/runs/suite-runs-view";
import { DEFAULT_TREND_WINDOW, HISTORY_PAGE_SIZE, historyHref, parseSuiteRunsLocation } from "@/components/runs/suite-runs-location";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";

export const metadata: Metadata = { title: "Runs" };

type SearchParams = Record<string, string | string[] | undefined>;

/** A suite's run history: pass-rate trend, metric averages, pass rate by tag and every run. */
export default async function SuiteRunsPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string; suiteId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { workspaceId, suiteId } = await params;
  const ctx = await pageContext(workspaceId);
  const location = parseSuiteRunsLocation(await searchParams);
  const canEdit = hasRole(ctx.role, "editor");
  const suiteHref = `/w/${workspaceId}/suites/${suiteId}`;

  const [suite, analytics, runs, tags] = await Promise.all([
    getSuite(ctx, suiteId),
    getSuiteAnalytics(ctx, suiteId, { runs: DEFAULT_TREND_WINDOW }),
    listSuiteRunsPage(ctx, suiteId, { cursor: location.cursor, status: location.status, limit: HISTORY_PAGE_SIZE }),
    canEdit ? listSuiteTags(ctx, suiteId) : Promise.resolve([]),
  ]).catch((err: unknown) => {
    if (err instanceof NotFoundError) notFound();
    // A stale or hand-edited cursor: back to the first page.
    if (err instanceof ValidationError && location.cursor) redirect(historyHref(`${suiteHref}/runs`, { prev: [], status: location.status }));
    throw err;
  });
  const startRun = canEdit ? <StartRunButton workspaceId={workspaceId} suiteId={suiteId} tags={tags} /> : undefined;

  return (
    <div className="space-y-4">
      <Breadcrumbs items={[{ label: "Suites", href: `/w/${workspaceId}/suites` }, { label: suite.name, href: suiteHref }, { label: "Runs" }]} />
      <PageHeader
        title={suite.name}
        description={
          <>
            Run history and trends · Agent: <span className="font-medium text-slate-800">{suite.agent_name}</span>
          </>
        }
        actions={
          <>
            <Link href={suiteHref} className={buttonClass("secondary")}>
              ← Test cases
            </Link>
            {startRun}
          </>
        }
      />
      <SuiteRunsView
        workspaceId={workspaceId}
        suiteId={suiteId}
        initialAnalytics={analytics}
        initialRuns={runs}
        location={location}
        startRun={startRun}
      />
    </div>
  );
}
