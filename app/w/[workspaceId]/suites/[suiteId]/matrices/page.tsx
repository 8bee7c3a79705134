import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadSuiteMatricesPage } from "@/lib/matrices/loaders";
import { ListPage } from "@/components/ui/list-page";
import { suiteCrumbs } from "@/components/suites/suite-crumbs";
import { MatrixList } from "@/components/matrices/matrix-list";
import { MatrixButton } from "@/components/matrices/matrix-dialog";
import type { WorkspacePageProps } from "@/lib/pages/props";

export const metadata = { title: "Matrix runs" };

export default async function SuiteMatricesPage({ params, searchParams }: WorkspacePageProps<{ suiteId: string }>) {
  const { workspaceId, suiteId } = await params;
  const ctx = await pageContext(workspaceId);
  const page = await orNotFound(loadSuiteMatricesPage(ctx, suiteId, await searchParams));
  const base = `/w/${workspaceId}/suites/${suiteId}`;
  return (
    <ListPage
      header={{
        title: "Matrix runs",
        description: `${page.suite.name}: the same cases under every combination of variable values, newest first.`,
        breadcrumbs: suiteCrumbs(workspaceId, page.suite, "matrices"),
        actions: page.canEdit ? <MatrixButton workspaceId={workspaceId} suiteId={suiteId} /> : undefined,
      }}
      empty={
        page.matrices.length === 0 && !page.cursor
          ? {
              title: "No matrix runs yet",
              description: page.canEdit
                ? "Start one with Matrix: pick variables of the suite's agent and the values to try."
                : "Editors can run this suite's cases under every combination of variable values.",
            }
          : null
      }
      pagination={{ base: `${base}/matrices`, cursor: page.cursor, nextCursor: page.nextCursor }}
    >
      <MatrixList workspaceId={workspaceId} rows={page.matrices} />
    </ListPage>
  );
}
