import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadComparisonPairPage } from "@/lib/comparisons/loaders";
import { PairView } from "@/components/comparisons/pair-view";
import type { WorkspaceParams } from "@/lib/pages/props";

export const metadata = { title: "Comparison pair" };

export default async function ComparisonPairPage({ params }: WorkspaceParams<{ comparisonId: string; index: string }>) {
  const { workspaceId, comparisonId, index } = await params;
  const ctx = await pageContext(workspaceId);
  const page = await orNotFound(loadComparisonPairPage(ctx, comparisonId, index));
  return <PairView workspaceId={workspaceId} {...page} />;
}
