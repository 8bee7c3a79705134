import { PageHeader } from "@/components/ui/page-header";
import { SettingsTabs } from "@/components/workspaces/settings-tabs";

export default async function SettingsLayout({
  children,
  params,
}: {
  children: React.ReactNode;
  params: Promise<{ workspaceId: string }>;
}) {
  const { workspaceId } = await params;
  return (
    <div className="max-w-4xl">
      <PageHeader
        title="Workspace settings"
        description="General settings, members and API keys of this workspace; retention of the instance's runs."
      />
      <SettingsTabs workspaceId={workspaceId} />
      {children}
    </div>
  );
}
