import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadApiKeysPage } from "@/lib/api-keys/loaders";
import { EmptyState } from "@/components/ui/card";
import { ApiKeysPanel } from "@/components/workspaces/api-keys-panel";
import type { WorkspaceParams } from "@/lib/pages/props";

export const metadata = { title: "API keys" };

export default async function ApiKeysPage({ params }: WorkspaceParams) {
  const { workspaceId } = await params;
  const ctx = await orNotFound(pageContext(workspaceId));
  const page = await loadApiKeysPage(ctx);
  if (!page.canManage) {
    return (
      <EmptyState title="Only admins can manage API keys" description="Ask an admin of this workspace for a key to use the REST API." />
    );
  }
  return <ApiKeysPanel workspaceId={workspaceId} keys={page.keys} />;
}
