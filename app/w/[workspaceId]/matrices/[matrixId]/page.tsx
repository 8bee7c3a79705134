import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadMatrixPage } from "@/lib/matrices/loaders";
import { MatrixView } from "@/components/matrices/matrix-view";
import type { WorkspaceParams } from "@/lib/pages/props";

export const metadata = { title: "Matrix run" };

export default async function MatrixPage({ params }: WorkspaceParams<{ matrixId: string }>) {
  const { workspaceId, matrixId } = await params;
  const ctx = await pageContext(workspaceId);
  const page = await orNotFound(loadMatrixPage(ctx, matrixId));
  return <MatrixView workspaceId={workspaceId} {...page} />;
}
