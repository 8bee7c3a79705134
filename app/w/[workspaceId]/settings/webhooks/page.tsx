import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadWebhooksPage } from "@/lib/webhooks/loaders";
import { EmptyState } from "@/components/ui/card";
import { WebhooksPanel } from "@/components/webhooks/webhooks-panel";
import { DeliveriesLog } from "@/components/webhooks/deliveries-log";
import type { WorkspacePageProps } from "@/lib/pages/props";

export const metadata = { title: "Webhooks" };

export default async function WebhooksPage({ params, searchParams }: WorkspacePageProps) {
  const { workspaceId } = await params;
  const sp = await searchParams;
  const ctx = await orNotFound(pageContext(workspaceId));
  const page = await loadWebhooksPage(ctx, sp);
  if (!page.canManage) {
    return <EmptyState title="Only admins can manage webhooks" description="Ask an admin of this workspace to add a webhook." />;
  }
  return (
    <div className="space-y-6">
      <WebhooksPanel workspaceId={workspaceId} webhooks={page.webhooks} selectedId={page.selected?.id ?? null} />
      {page.selected && (
        <DeliveriesLog
          workspaceId={workspaceId}
          webhook={page.selected}
          deliveries={page.deliveries}
          cursor={page.cursor}
          nextCursor={page.nextCursor}
        />
      )}
    </div>
  );
}
