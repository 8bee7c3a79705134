"use client";
import { roleLabels, type Role } from "@/lib/auth/roles";
import { revokeInvitationAction } from "@/lib/workspaces/settings-actions";
import { RowActionButton } from "@/components/ui/action-button";
import { Badge } from "@/components/ui/card";
import { formatDate } from "./format";

const revokeConfirm = (email: string) => ({
  title: `Revoke the invitation for ${email}?`,
  description: "The invite link stops working at once.",
  confirmLabel: "Revoke invitation",
});

export type InvitationRow = { id: string; email: string; role: Role; expiresAt: Date; createdAt: Date; expired: boolean };

export function InvitationsList({ workspaceId, invitations }: { workspaceId: string; invitations: InvitationRow[] }) {
  if (invitations.length === 0) return <p className="text-sm text-slate-500">No pending invitations.</p>;
  return (
    <ul className="divide-y divide-slate-100 text-sm">
      {invitations.map((inv) => (
        <li key={inv.id} className="flex items-center justify-between gap-4 py-2">
          <div>
            <span className="font-medium text-slate-900">{inv.email}</span> <Badge>{roleLabels[inv.role]}</Badge>{" "}
            {inv.expired ? (
              <Badge tone="red">Expired</Badge>
            ) : (
              <span className="text-xs text-slate-500">expires {formatDate(inv.expiresAt)}</span>
            )}
          </div>
          <RowActionButton
            aria-label={`Revoke invitation for ${inv.email}`}
            confirm={revokeConfirm(inv.email)}
            action={() => revokeInvitationAction(workspaceId, { id: inv.id })}
          >
            Revoke
          </RowActionButton>
        </li>
      ))}
    </ul>
  );
}
