import "server-only";
import { db, type Tx } from "@/lib/db";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError, isUniqueViolation } from "@/lib/errors";
import { requireRole, type Role, type WorkspaceContext } from "@/lib/auth/roles";
import { hashToken, randomToken } from "@/lib/crypto";
import { hashPassword } from "@/lib/auth/password";
import { attemptKeys, requireAttempt } from "@/lib/auth/rate-limit";
import { normaliseEmail } from "@/lib/users/service";
import { isUuid } from "@/lib/ids";
import { invitationSelect, type PendingInvitation } from "@/lib/workspaces/dto";

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export type InviteResult = { kind: "invited"; invitation: PendingInvitation; token: string };

/**
 * "Invite members by email": always a pending invitation whose token (stored only as a SHA-256)
 * is returned once to build the link, whether or not the address already has an account, so
 * the answer never tells the inviter which addresses are registered. An existing user accepts
 * it after signing in (the invite page shows "Join"); nobody is added without accepting.
 */
export async function inviteMember(ctx: WorkspaceContext, input: { email: string; role: Role }): Promise<InviteResult> {
  requireRole(ctx, "admin");
  if (input.role === "owner" && ctx.role !== "owner") {
    throw new ForbiddenError("Only an owner can invite an owner");
  }
  const email = normaliseEmail(input.email);
  // Members are listed on the same page, so saying so reveals nothing new.
  const member = await db.membership.findFirst({ where: { workspaceId: ctx.workspaceId, user: { email } }, select: { id: true } });
  if (member) {
    const message = `${email} is already a member of this workspace`;
    throw new ConflictError(message, [{ path: "email", message }]);
  }
  const token = randomToken("inv_", 32);
  const invitation = await db.$transaction(async (tx) => {
    // One open invitation per address: a new one replaces the old link.
    await tx.invitation.deleteMany({ where: { workspaceId: ctx.workspaceId, email, acceptedAt: null } });
    return tx.invitation.create({
      data: {
        workspaceId: ctx.workspaceId,
        email,
        role: input.role,
        tokenHash: hashToken(token),
        invitedById: ctx.userId,
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      },
      select: invitationSelect,
    });
  });
  return { kind: "invited", invitation: { ...invitation, expired: false }, token };
}

/** Invitations not yet accepted (expired ones are listed as such so they can be cleaned up). */
export async function listInvitations(ctx: WorkspaceContext): Promise<PendingInvitation[]> {
  requireRole(ctx, "admin");
  const rows = await db.invitation.findMany({
    where: { workspaceId: ctx.workspaceId, acceptedAt: null },
    select: invitationSelect,
    orderBy: { createdAt: "desc" },
  });
  const now = Date.now();
  return rows.map((r) => ({ ...r, expired: r.expiresAt.getTime() <= now }));
}

/** Revoking deletes the invitation, so its link stops working at once. */
export async function revokeInvitation(ctx: WorkspaceContext, id: string): Promise<void> {
  requireRole(ctx, "admin");
  if (!isUuid(id)) throw new NotFoundError("Invitation");
  const { count } = await db.invitation.deleteMany({ where: { id, workspaceId: ctx.workspaceId, acceptedAt: null } });
  if (count === 0) throw new NotFoundError("Invitation");
}

export type InvitationLookup =
  | { state: "valid"; email: string; role: Role; workspace: { id: string; name: string }; expiresAt: Date }
  | { state: "expired" | "used" | "invalid" };

/**
 * What the holder of an invite link may see: the workspace, the address and the role. Not
 * whether the address has an account: whoever opens the link is offered both ways in.
 */
export async function lookupInvitation(token: string): Promise<InvitationLookup> {
  const inv = await db.invitation.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { email: true, role: true, expiresAt: true, acceptedAt: true, workspace: { select: { id: true, name: true } } },
  });
  if (!inv) return { state: "invalid" };
  if (inv.acceptedAt) return { state: "used" };
  if (inv.expiresAt.getTime() <= Date.now()) return { state: "expired" };
  return { state: "valid", email: inv.email, role: inv.role, workspace: inv.workspace, expiresAt: inv.expiresAt };
}

const UNUSABLE = "This invitation link is invalid, has expired, was revoked or was already used";

/** Marks the invitation accepted if it still can be; concurrent accepts: exactly one wins. */
async function claim(tx: Tx, token: string) {
  const inv = await tx.invitation.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { id: true, email: true, role: true, workspaceId: true },
  });
  if (!inv) throw new ValidationError(UNUSABLE, [{ path: "token", message: UNUSABLE }]);
  const { count } = await tx.invitation.updateMany({
    where: { id: inv.id, acceptedAt: null, expiresAt: { gt: new Date() } },
    data: { acceptedAt: new Date() },
  });
  if (count === 0) throw new ValidationError(UNUSABLE, [{ path: "token", message: UNUSABLE }]);
  return inv;
}

const ACCOUNT_EXISTS = "An account with this email already exists: sign in to accept the invitation";

/**
 * Signed out: creates the account for the invited address and its membership in one
 * transaction, and marks the invitation accepted. The link is the credential: whoever holds it
 * creates the invited account. With `limit`, the attempt is counted (per client address, and per
 * invited address once the token is known to be usable) before anything else; before any
 * password hashing the token must be usable and the address free.
 */
export async function acceptInvitationWithNewAccount(
  input: { token: string; name?: string | null; password: string },
  limit?: { ip: string | null },
) {
  const found = await lookupInvitation(input.token);
  const email = found.state === "valid" ? found.email : null;
  if (limit) await requireAttempt(attemptKeys({ ip: limit.ip, email }));
  if (found.state !== "valid") throw new ValidationError(UNUSABLE, [{ path: "token", message: UNUSABLE }]);
  if ((await db.user.count({ where: { email: found.email } })) > 0) throw new ConflictError(ACCOUNT_EXISTS);
  const passwordHash = await hashPassword(input.password);
  return db.$transaction(async (tx) => {
    const inv = await claim(tx, input.token);
    let userId: string;
    try {
      const user = await tx.user.create({
        data: { email: inv.email, name: input.name?.trim() || null, passwordHash },
        select: { id: true },
      });
      userId = user.id;
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(ACCOUNT_EXISTS);
      throw err;
    }
    await tx.membership.create({ data: { workspaceId: inv.workspaceId, userId, role: inv.role } });
    return { workspaceId: inv.workspaceId, email: inv.email, userId };
  });
}

/** Signed in as the invited address: joins the workspace (an existing membership keeps its role). */
export async function acceptInvitationAsUser(userId: string, token: string) {
  return db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true } });
    const inv = await claim(tx, token);
    if (!user || normaliseEmail(user.email) !== inv.email) {
      throw new ForbiddenError(`This invitation is for ${inv.email}; sign in with that address to accept it`);
    }
    await tx.membership.upsert({
      where: { workspaceId_userId: { workspaceId: inv.workspaceId, userId } },
      create: { workspaceId: inv.workspaceId, userId, role: inv.role },
      update: {},
    });
    return { workspaceId: inv.workspaceId };
  });
}
