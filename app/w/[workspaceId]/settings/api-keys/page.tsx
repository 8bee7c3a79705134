import { hasRole } from "@/lib/auth/roles";
import { listApiKeys } from "@/lib/api-keys/service";
import { EmptyState } from "@/components/ui/card";
import { ApiKeysPanel } from "@/components/workspaces/api-keys-panel";
import { settingsContext } from "../settings-context";

export const metadata = { title: "API keys" };

export default async function ApiKeysPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const ctx = await settingsContext(workspaceId);
  if (!hasRole(ctx.role, "admin")) {
    return <EmptyState title="Only admins can manage API keys" description="Ask an admin of this workspace for a key to use the REST API." />;
  }
  const keys = await listApiKeys(ctx);
  return <ApiKeysPanel workspaceId={workspaceId} keys={keys} />;
}
