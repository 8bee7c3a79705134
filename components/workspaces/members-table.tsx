"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { ROLES, roleLabels, type Role } from "@/lib/auth/roles";
import { changeMemberRoleAction, removeMemberAction } from "@/lib/workspaces/settings-actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { FormError, Select } from "@/components/ui/field";
import { Badge } from "@/components/ui/card";
import { formatDate } from "./format";

export type MemberRow = { userId: string; email: string; name: string | null; role: Role; joinedAt: Date };

/** Owners manage everyone; admins manage everyone but owners and cannot grant the owner role. */
function canManage(actorRole: Role, target: Role): boolean {
  if (actorRole === "owner") return true;
  return actorRole === "admin" && target !== "owner";
}

export function MembersTable({
  workspaceId,
  members,
  actorRole,
  actorUserId,
}: {
  workspaceId: string;
  members: MemberRow[];
  actorRole: Role;
  actorUserId: string;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const assignable = ROLES.filter((r) => actorRole === "owner" || r !== "owner");

  function changeRole(userId: string, role: Role) {
    setError(null);
    startTransition(async () => {
      const result = await changeMemberRoleAction(workspaceId, { userId, role });
      if (!result.ok) setError(result.error);
      router.refresh();
    });
  }

  return (
    <div className="space-y-3">
      <FormError message={error} />
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 text-xs uppercase text-slate-500">
          <tr>
            <th className="py-2 pr-4 font-medium">Member</th>
            <th className="py-2 pr-4 font-medium">Role</th>
            <th className="py-2 pr-4 font-medium">Joined</th>
            <th className="py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => {
            const manageable = canManage(actorRole, m.role);
            const label = m.name ? `${m.name} (${m.email})` : m.email;
            return (
              <tr key={m.userId} className="border-b border-slate-100 last:border-0">
                <td className="py-2 pr-4">
                  <div className="font-medium text-slate-900">{m.name ?? m.email}</div>
                  {m.name && <div className="text-xs text-slate-500">{m.email}</div>}
                  {m.userId === actorUserId && <Badge className="mt-1">You</Badge>}
                </td>
                <td className="py-2 pr-4">
                  {manageable ? (
                    <Select
                      aria-label={`Role of ${m.email}`}
                      className="w-32 py-1"
                      value={m.role}
                      disabled={pending}
                      onChange={(e) => changeRole(m.userId, e.target.value as Role)}
                    >
                      {assignable.map((r) => (
                        <option key={r} value={r}>
                          {roleLabels[r]}
                        </option>
                      ))}
                    </Select>
                  ) : (
                    <Badge tone={m.role === "owner" ? "indigo" : "slate"}>{roleLabels[m.role]}</Badge>
                  )}
                </td>
                <td className="py-2 pr-4 text-slate-600">{formatDate(m.joinedAt)}</td>
                <td className="py-2 text-right">
                  {manageable && m.userId !== actorUserId && (
                    <ConfirmButton
                      variant="ghost"
                      size="sm"
                      title={`Remove ${label}?`}
                      description="They lose access to this workspace at once. Their past runs stay."
                      confirmLabel="Remove member"
                      aria-label={`Remove ${m.email}`}
                      onConfirm={async () => {
                        setError(null);
                        const result = await removeMemberAction(workspaceId, { userId: m.userId });
                        if (!result.ok) setError(result.error);
                        router.refresh();
                      }}
                    >
                      Remove
                    </ConfirmButton>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
