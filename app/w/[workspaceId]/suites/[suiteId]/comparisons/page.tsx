import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadSuiteComparisonsPage } from "@/lib/comparisons/loaders";
import { SuiteExperimentsPage } from "@/components/suites/suite-experiments-page";
import { ComparisonList } from "@/components/comparisons/comparison-list";
import { CompareButton } from "@/components/comparisons/compare-dialog";
import type { WorkspacePageProps } from "@/lib/pages/props";

export const metadata = { title: "Comparisons" };

export default async function SuiteComparisonsPage({ params, searchParams }: WorkspacePageProps<{ suiteId: string }>) {
  const { workspaceId, suiteId } = await params;
  const ctx = await pageContext(workspaceId);
  const page = await orNotFound(loadSuiteComparisonsPage(ctx, suiteId, await searchParams));
  return (
    <SuiteExperimentsPage
      workspaceId={workspaceId}
      page={page}
      section="comparisons"
      title="Comparisons"
      description={`A/B comparisons of ${page.suite.name}: the same cases under two configurations, newest first.`}
      launch={<CompareButton workspaceId={workspaceId} suiteId={suiteId} />}
      empty={
        page.comparisons.length === 0
          ? {
              title: "No comparisons yet",
              editors:
                "Compare two configurations of this suite's agent with Compare, or pick two runs with “Compare with…” on a run page.",
              viewers: "Editors can compare two configurations of this suite's agent.",
            }
          : null
      }
    >
      <ComparisonList workspaceId={workspaceId} rows={page.comparisons} />
    </SuiteExperimentsPage>
  );
}
