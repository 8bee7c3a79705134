import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadComparisonPage, PAIR_PAGE_SIZE } from "@/lib/comparisons/loaders";
import { ComparisonView } from "@/components/comparisons/comparison-view";
import type { WorkspaceParams } from "@/lib/pages/props";

export const metadata = { title: "Comparison" };

export default async function ComparisonPage({ params }: WorkspaceParams<{ comparisonId: string }>) {
  const { workspaceId, comparisonId } = await params;
  const ctx = await pageContext(workspaceId);
  const page = await orNotFound(loadComparisonPage(ctx, comparisonId));
  return <ComparisonView workspaceId={workspaceId} {...page} pageSize={PAIR_PAGE_SIZE} />;
}
