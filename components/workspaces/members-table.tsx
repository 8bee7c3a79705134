"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { ROLES, roleLabels, type Role } from "@/lib/auth/roles";
import { changeMemberRoleAction, removeMemberAction } from "@/lib/workspaces/settings-actions";
import { RowActionButton } from "@/components/ui/action-button";
import { Table, TableBody, TableCell, TableHeader, TableRow } from "@/components/ui/table";
import { FormError, Options, Select } from "@/components/ui/field";
import { Badge } from "@/components/ui/card";
import { formatDate } from "./format";

export type MemberRow = { userId: string; email: string; name: string | null; role: Role; joinedAt: Date };

const removeConfirm = (label: string) => ({
  title: `Remove ${label}?`,
  description: "They lose access to this workspace at once. Their past runs stay.",
  confirmLabel: "Remove member",
});

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
      <Table variant="plain">
        <TableHeader columns={["Member", "Role", "Joined", { label: "Actions", srOnly: true }]} />
        <TableBody>
          {members.map((m) => {
            const manageable = canManage(actorRole, m.role);
            const label = m.name ? `${m.name} (${m.email})` : m.email;
            return (
              <TableRow key={m.userId}>
                <TableCell>
                  <div className="font-medium text-slate-900">{m.name ?? m.email}</div>
                  {m.name && <div className="text-xs text-slate-500">{m.email}</div>}
                  {m.userId === actorUserId && <Badge className="mt-1">You</Badge>}
                </TableCell>
                <TableCell>
                  {manageable ? (
                    <Select
                      aria-label={`Role of ${m.email}`}
                      className="w-32 py-1"
                      value={m.role}
                      disabled={pending}
                      onChange={(e) => changeRole(m.userId, e.target.value as Role)}
                    >
                      <Options values={assignable} labels={roleLabels} />
                    </Select>
                  ) : (
                    <Badge tone={m.role === "owner" ? "indigo" : "slate"}>{roleLabels[m.role]}</Badge>
                  )}
                </TableCell>
                <TableCell className="text-slate-600">{formatDate(m.joinedAt)}</TableCell>
                <TableCell className="text-right">
                  {manageable && m.userId !== actorUserId && (
                    <RowActionButton
                      aria-label={`Remove ${m.email}`}
                      confirm={removeConfirm(label)}
                      action={() => removeMemberAction(workspaceId, { userId: m.userId })}
                    >
                      Remove
                    </RowActionButton>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
