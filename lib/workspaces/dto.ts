import type { Prisma } from "@/lib/generated/prisma/client";
import type { Role } from "@/lib/auth/roles";

/**
 * Workspace membership shapes: the Prisma `select` constants, the row → DTO mapper and the DTO
 * types of members and pending invitations. No server-only imports: client components may import them.
 */

export const memberSelect = {
  role: true,
  createdAt: true,
  user: { select: { id: true, email: true, name: true } },
} as const satisfies Prisma.MembershipSelect;

export type Member = { userId: string; email: string; name: string | null; role: Role; joinedAt: Date };

type MemberRow = Prisma.MembershipGetPayload<{ select: typeof memberSelect }>;

export function toMember(row: MemberRow): Member {
  return { userId: row.user.id, email: row.user.email, name: row.user.name, role: row.role, joinedAt: row.createdAt };
}

export const invitationSelect = {
  id: true,
  email: true,
  role: true,
  expiresAt: true,
  createdAt: true,
} as const satisfies Prisma.InvitationSelect;

/** An invitation not yet accepted; `expired` ones are listed so admins can clean them up. */
export type PendingInvitation = { id: string; email: string; role: Role; expiresAt: Date; createdAt: Date; expired: boolean };
