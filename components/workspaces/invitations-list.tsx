"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { roleLabels, type Role } from "@/lib/auth/roles";
import { revokeInvitationAction } from "@/lib/workspaces/settings-actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { FormError } from "@/components/ui/field";
import { Badge } from "@/components/ui/card";
import { formatDate } from "./format";

export type InvitationRow = { id: string; email: string; role: Role; expiresAt: Date; createdAt: Date; expired: boolean };

export function InvitationsList({ workspaceId, invitations }: { workspaceId: string; invitations: InvitationRow[] }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  if (invitations.length === 0) return <p className="text-sm text-slate-500">No pending invitations.</p>;
  return (
    <div className="space-y-3">
      <FormError message={error} />
      <ul className="divide-y divide-slate-100 text-sm">
        {invitations.map((inv) => (
          <li key={inv.id} className="flex items-center justify-between gap-4 py-2">
            <div>
              <span className="font-medium text-slate-900">{inv.email}</span>{" "}
              <Badge>{roleLabels[inv.role]}</Badge>{" "}
              {inv.expired ? <Badge tone="red">Expired</Badge> : <span className="text-xs text-slate-500">expires {formatDate(inv.expiresAt)}</span>}
            </div>
            <ConfirmButton
              variant="ghost"
              size="sm"
              title={`Revoke the invitation for ${inv.email}?`}
              description="The invite link stops working at once."
              confirmLabel="Revoke invitation"
              aria-label={`Revoke invitation for ${inv.email}`}
              onConfirm={async () => {
                setError(null);
                const result = await revokeInvitationAction(workspaceId, { id: inv.id });
                if (!result.ok) setError(result.error);
                router.refresh();
              }}
            >
              Revoke
            </ConfirmButton>
          </li>
        ))}
      </ul>
    </div>
  );
}
