"use client";
import { roleLabels, type Role } from "@/lib/auth/roles";
import { revokeInvitationAction } from "@/lib/workspaces/settings-actions";
import { ActionButton } from "@/components/ui/action-button";
import { Badge } from "@/components/ui/card";
import { formatDate } from "./format";

export type InvitationRow = { id: string; email: string; role: Role; expiresAt: Date; createdAt: Date; expired: boolean };

export function InvitationsList({ workspaceId, invitations }: { workspaceId: string; invitations: InvitationRow[] }) {
  if (invitations.length === 0) return <p className="text-sm text-slate-500">No pending invitations.</p>;
  return (
    <ul className="divide-y divide-slate-100 text-sm">
        {invitations.map((inv) => (
          <li key={inv.id} className="flex items-center justify-between gap-4 py-2">
            <div>
              <span className="font-medium text-slate-900">{inv.email}</span>{" "}
              <Badge>{roleLabels[inv.role]}</Badge>{" "}
              {inv.expired ? <Badge tone="red">Expired</Badge> : <span className="text-xs text-slate-500">expires {formatDate(inv.expiresAt)}</span>}
            </div>
            <ActionButton
              variant="ghost"
              size="sm"
              align="end"
              aria-label={`Revoke invitation for ${inv.email}`}
              confirm={{ title: `Revoke the invitation for ${inv.email}?`, description: "The invite link stops working at once.", confirmLabel: "Revoke invitation" }}
              action={() => revokeInvitationAction(workspaceId, { id: inv.id })}
              refresh="always"
            >
              Revoke
            </ActionButton>
          </li>
        ))}
    </ul>
  );
}
