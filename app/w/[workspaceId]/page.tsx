import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadDashboardPage } from "@/lib/dashboard/loaders";
import { PageHeader } from "@/components/ui/page-header";
import { DashboardView } from "@/components/dashboard/dashboard-view";
import type { WorkspaceParams } from "@/lib/pages/props";

export const metadata = { title: "Home" };

export default async function WorkspaceHome({ params }: WorkspaceParams) {
  const { workspaceId } = await params;
  const ctx = await orNotFound(pageContext(workspaceId));
  const page = await loadDashboardPage(ctx);
  return (
    <div className="max-w-6xl">
      <PageHeader title="Home" description="What ran, what broke and what waits for you in this workspace." />
      <DashboardView workspaceId={workspaceId} dashboard={page.dashboard} canEdit={page.canEdit} canLoadDemo={page.canLoadDemo} />
    </div>
  );
}
