import Link from "next/link";
import type { Metadata } from "next";
import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadSuiteRunsPage } from "@/lib/runs/loaders";
import { PageHeader } from "@/components/ui/page-header";
import { buttonClass } from "@/components/ui/button";
import { StartRunButton } from "@/components/runs/start-run-button";
import { SuiteRunsView } from "@/components/runs/suite-runs-view";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { suiteCrumbs } from "@/components/suites/suite-crumbs";
import type { WorkspacePageProps } from "@/lib/pages/props";
import { loadSuitePresets } from "@/lib/presets/loaders";
import { loadSuiteFlakyCases } from "@/lib/suites/loaders";
import { FlakyCasesCard } from "@/components/suites/flaky-cases-card";

export const metadata: Metadata = { title: "Runs" };

/** A suite's run history: pass-rate trend, metric averages, pass rate by tag, flaky cases and every run. */
export default async function SuiteRunsPage({ params, searchParams }: WorkspacePageProps<{ suiteId: string }>) {
  const { workspaceId, suiteId } = await params;
  const sp = await searchParams;
  const ctx = await pageContext(workspaceId);
  const { suite, analytics, runs, tags, location, canEdit } = await orNotFound(loadSuiteRunsPage(ctx, suiteId, sp));
  const suiteHref = `/w/${workspaceId}/suites/${suiteId}`;
  // The variables model: typed variable inputs and presets in the run dialog (editors only).
  const [runVariables, flaky] = await Promise.all([
    canEdit ? loadSuitePresets(ctx, suiteId) : Promise.resolve(undefined),
    loadSuiteFlakyCases(ctx, suiteId),
  ]);
  const startRun = canEdit ? (
    <StartRunButton suite={{ workspaceId, suiteId, tags, variables: runVariables, defaultTrials: suite.default_trials }} />
  ) : undefined;

  return (
    <div className="space-y-4">
      <Breadcrumbs items={suiteCrumbs(workspaceId, suite, "runs")} />
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
        flakyCases={<FlakyCasesCard workspaceId={workspaceId} suiteId={suiteId} cases={flaky.cases} windowRuns={flaky.windowRuns} />}
      />
    </div>
  );
}
