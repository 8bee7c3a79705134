import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadSuiteComparisonsPage } from "@/lib/comparisons/loaders";
import { ListPage } from "@/components/ui/list-page";
import { suiteCrumbs } from "@/components/suites/suite-crumbs";
import { ComparisonList } from "@/components/comparisons/comparison-list";
import { CompareButton } from "@/components/comparisons/compare-dialog";
import type { WorkspacePageProps } from "@/lib/pages/props";

export const metadata = { title: "Comparisons" };

export default async function SuiteComparisonsPage({ params, searchParams }: WorkspacePageProps<{ suiteId: string }>) {
  const { workspaceId, suiteId } = await params;
  const ctx = await pageContext(workspaceId);
  const page = await orNotFound(loadSuiteComparisonsPage(ctx, suiteId, await searchParams));
  const base = `/w/${workspaceId}/suites/${suiteId}`;
  return (
    <ListPage
      header={{
        title: "Comparisons",
        description: `A/B comparisons of ${page.suite.name}: the same cases under two configurations, newest first.`,
        breadcrumbs: suiteCrumbs(workspaceId, page.suite, "comparisons"),
        actions: page.canEdit ? <CompareButton workspaceId={workspaceId} suiteId={suiteId} /> : undefined,
      }}
      empty={
        page.comparisons.length === 0 && !page.cursor
          ? {
              title: "No comparisons yet",
              description: page.canEdit
                ? "Compare two configurations of this suite's agent with Compare, or pick two runs with “Compare with…” on a run page."
                : "Editors can compare two configurations of this suite's agent.",
            }
          : null
      }
      pagination={{ base: `${base}/comparisons`, cursor: page.cursor, nextCursor: page.nextCursor }}
    >
      <ComparisonList workspaceId={workspaceId} rows={page.comparisons} />
    </ListPage>
  );
}
