import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadMembersPage } from "@/lib/workspaces/loaders";
import { Card } from "@/components/ui/card";
import { MembersTable } from "@/components/workspaces/members-table";
import { InviteForm } from "@/components/workspaces/invite-form";
import { InvitationsList } from "@/components/workspaces/invitations-list";
import type { WorkspaceParams } from "@/lib/pages/props";

export const metadata = { title: "Members" };

export default async function MembersPage({ params }: WorkspaceParams) {
  const { workspaceId } = await params;
  const ctx = await orNotFound(pageContext(workspaceId));
  const { members, invitations, isAdmin, actorRole, actorUserId } = await loadMembersPage(ctx);
  return (
    <div className="space-y-6">
      {isAdmin && (
        <Card className="p-5">
          <h2 className="text-base font-semibold">Invite or add members</h2>
          <p className="mt-1 mb-4 text-sm text-slate-600">
            Someone who already has an account is added at once. Anyone else gets an invite link to create their account.
          </p>
          <InviteForm workspaceId={workspaceId} actorRole={ctx.role} />
        </Card>
      )}
      <Card className="p-5">
        <h2 className="mb-3 text-base font-semibold">Members ({members.length})</h2>
        {!isAdmin && <p className="mb-3 text-sm text-slate-600">Only admins can invite, remove or change the role of members.</p>}
        <MembersTable workspaceId={workspaceId} members={members} actorRole={actorRole} actorUserId={actorUserId} />
      </Card>
      {isAdmin && (
        <Card className="p-5">
          <h2 className="mb-3 text-base font-semibold">Pending invitations</h2>
          <InvitationsList workspaceId={workspaceId} invitations={invitations} />
        </Card>
      )}
    </div>
  );
}
