import { notFound } from "next/navigation";
import { orNotFound, pageContext, requireUserId } from "@/lib/auth/context";
import { firstWorkspaceId } from "@/lib/retention/service";
import { loadRetentionPage } from "@/lib/retention/loaders";
import { UserShell } from "@/components/shell/user-shell";
import { PageHeader } from "@/components/ui/page-header";
import { InstanceSettings } from "@/components/instance/instance-settings";

export const metadata = { title: "Instance" };

/**
 * Instance-wide settings (retention and cleanup), for instance admins only: the owners and admins
 * of the instance's first workspace. Everyone else gets the 404 page, as for a foreign workspace.
 */
export default async function InstancePage() {
  const userId = await requireUserId();
  const workspaceId = await firstWorkspaceId();
  if (!workspaceId) notFound();
  const page = await orNotFound(loadRetentionPage(await orNotFound(pageContext(workspaceId))));
  if (!page.allowed) notFound();
  return (
    <UserShell userId={userId} fallback={null}>
      <div className="max-w-4xl">
        <PageHeader
          title="Instance"
          description="Settings for every workspace of this Assay instance. Only instance admins see this page."
        />
        <InstanceSettings workspaceId={workspaceId} settings={page.settings} records={page.records} />
      </div>
    </UserShell>
  );
}
