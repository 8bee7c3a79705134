import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadGeneralSettingsPage } from "@/lib/workspaces/loaders";
import { Card } from "@/components/ui/card";
import { WorkspaceSettingsForm } from "@/components/workspaces/workspace-settings-form";
import { LeaveWorkspace } from "@/components/workspaces/leave-workspace";
import type { WorkspaceParams } from "@/lib/pages/props";
import { sharingEnabled } from "@/lib/share-links/service";
import { SharingSetting } from "@/components/share/sharing-setting";

export const metadata = { title: "Workspace settings" };

export default async function GeneralSettingsPage({ params }: WorkspaceParams) {
  const { workspaceId } = await params;
  const ctx = await orNotFound(pageContext(workspaceId));
  const { workspace, canEdit } = await loadGeneralSettingsPage(ctx);
  const sharing = await sharingEnabled(workspace.id);
  return (
    <div className="space-y-6">
      <Card className="p-5">
        <h2 className="mb-4 text-base font-semibold">General</h2>
        <WorkspaceSettingsForm workspace={workspace} canEdit={canEdit} />
      </Card>
      <Card className="p-5">
        <h2 className="mb-3 text-base font-semibold">Sharing</h2>
        <SharingSetting workspaceId={workspace.id} enabled={sharing} canEdit={canEdit} />
      </Card>
      <Card className="p-5">
        <h2 className="text-base font-semibold">Leave this workspace</h2>
        <p className="mt-1 mb-3 text-sm text-slate-600">The last owner cannot leave: make someone else an owner first.</p>
        <LeaveWorkspace workspaceId={workspace.id} workspaceName={workspace.name} />
      </Card>
    </div>
  );
}
