import { PageHeader } from "@/components/ui/page-header";
import { SettingsTabs } from "@/components/workspaces/settings-tabs";
import type { WorkspaceParams } from "@/lib/pages/props";

export default async function SettingsLayout({ children, params }: WorkspaceParams & { children: React.ReactNode }) {
  const { workspaceId } = await params;
  return (
    <div className="max-w-4xl">
      <PageHeader title="Workspace settings" description="General settings, members, API keys and webhooks of this workspace." />
      <SettingsTabs workspaceId={workspaceId} />
      {children}
    </div>
  );
}
