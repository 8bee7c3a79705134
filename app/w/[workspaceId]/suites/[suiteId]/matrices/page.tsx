import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadSuiteMatricesPage } from "@/lib/matrices/loaders";
import { SuiteExperimentsPage } from "@/components/suites/suite-experiments-page";
import { MatrixList } from "@/components/matrices/matrix-list";
import { MatrixButton } from "@/components/matrices/matrix-dialog";
import type { WorkspacePageProps } from "@/lib/pages/props";

export const metadata = { title: "Matrix runs" };

export default async function SuiteMatricesPage({ params, searchParams }: WorkspacePageProps<{ suiteId: string }>) {
  const { workspaceId, suiteId } = await params;
  const ctx = await pageContext(workspaceId);
  const page = await orNotFound(loadSuiteMatricesPage(ctx, suiteId, await searchParams));
  return (
    <SuiteExperimentsPage
      workspaceId={workspaceId}
      page={page}
      section="matrices"
      title="Matrix runs"
      description={`${page.suite.name}: the same cases under every combination of variable values, newest first.`}
      launch={<MatrixButton workspaceId={workspaceId} suiteId={suiteId} />}
      empty={
        page.matrices.length === 0
          ? {
              title: "No matrix runs yet",
              editors: "Start one with Matrix: pick variables of the suite's agent and the values to try.",
              viewers: "Editors can run this suite's cases under every combination of variable values.",
            }
          : null
      }
    >
      <MatrixList workspaceId={workspaceId} rows={page.matrices} />
    </SuiteExperimentsPage>
  );
}
