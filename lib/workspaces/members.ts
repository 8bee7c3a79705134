import "server-only";
import { db, type Tx } from "@/lib/db";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/errors";
import { requireRole, type Role, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { revokeSessions } from "@/lib/users/service";
import { invalidateSessionCache } from "@/lib/auth/session-cache";
import { memberSelect, toMember, type Member } from "@/lib/workspaces/dto";

const roleOrder: Record<Role, number> = { owner: 0, admin: 1, editor: 2, viewer: 3 };

/** Every member can see who else is in the workspace (owners first, then by email). */
export async function listMembers(ctx: WorkspaceContext): Promise<Member[]> {
  const rows = await db.membership.findMany({
    where: { workspaceId: ctx.workspaceId },
    select: memberSelect,
    orderBy: { user: { email: "asc" } },
  });
  return rows.map(toMember).sort((a, b) => roleOrder[a.role] - roleOrder[b.role]);
}

const LAST_OWNER = "A workspace needs at least one owner: make someone else an owner first";

/**
 * Locks the workspace row so concurrent role changes and removals that each check "is there
 * another owner?" are serialised, then loads the target membership (NotFound outside ctx's workspace).
 */
async function lockAndLoad(tx: Tx, ctx: WorkspaceContext, userId: string) {
  await tx.$queryRaw`SELECT id FROM "Workspace" WHERE id = ${ctx.workspaceId}::uuid FOR NO KEY UPDATE`;
  if (!isUuid(userId)) throw new NotFoundError("Member");
  const target = await tx.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: ctx.workspaceId, userId } },
    select: { id: true, role: true },
  });
  if (!target) throw new NotFoundError("Member");
  return target;
}

/**
 * A member leaving (or being removed) takes their API keys in this workspace with them: revoked
 * here so that joining again does not bring them back (the key lookup also checks the creator).
 */
async function revokeKeysOf(tx: Tx, workspaceId: string, userId: string) {
  await tx.apiKey.updateMany({ where: { workspaceId, createdById: userId, revokedAt: null }, data: { revokedAt: new Date() } });
}

async function otherOwners(tx: Tx, workspaceId: string, userId: string) {
  return tx.membership.count({ where: { workspaceId, role: "owner", userId: { not: userId } } });
}

/**
 * Admins manage members; only owners grant or revoke the owner role, and the last owner can
 * never be demoted.
 */
export async function changeMemberRole(ctx: WorkspaceContext, userId: string, role: Role): Promise<Member> {
  requireRole(ctx, "admin");
  const member = await db.$transaction(async (tx) => {
    const target = await lockAndLoad(tx, ctx, userId);
    if ((target.role === "owner" || role === "owner") && ctx.role !== "owner") {
      throw new ForbiddenError("Only an owner can grant or revoke the owner role");
    }
    if (target.role === "owner" && role !== "owner" && (await otherOwners(tx, ctx.workspaceId, userId)) === 0) {
      throw new ConflictError(LAST_OWNER, [{ path: "role", message: LAST_OWNER }]);
    }
    const row = await tx.membership.update({ where: { id: target.id }, data: { role }, select: memberSelect });
    return toMember(row);
  });
  invalidateSessionCache();
  return member;
}

/**
 * Admins remove members; only owners remove owners; the last owner stays. The removed user's
 * sessions end (session version bumped), and API keys they created stop working
 * (lib/api-keys/service.ts checks the creator's membership).
 */
export async function removeMember(ctx: WorkspaceContext, userId: string): Promise<void> {
  requireRole(ctx, "admin");
  await db.$transaction(async (tx) => {
    const target = await lockAndLoad(tx, ctx, userId);
    if (target.role === "owner") {
      if (ctx.role !== "owner") throw new ForbiddenError("Only an owner can remove an owner");
      if ((await otherOwners(tx, ctx.workspaceId, userId)) === 0) throw new ConflictError(LAST_OWNER);
    }
    await tx.membership.delete({ where: { id: target.id } });
    await revokeKeysOf(tx, ctx.workspaceId, userId);
    await revokeSessions(userId, tx);
  });
  invalidateSessionCache();
}

/** Any member may leave, except the last owner. */
export async function leaveWorkspace(ctx: WorkspaceContext): Promise<void> {
  if (!ctx.userId) throw new ForbiddenError("Only a signed-in member can leave a workspace");
  const userId = ctx.userId;
  await db.$transaction(async (tx) => {
    const target = await lockAndLoad(tx, ctx, userId);
    if (target.role === "owner" && (await otherOwners(tx, ctx.workspaceId, userId)) === 0) {
      throw new ConflictError(`You are the last owner. ${LAST_OWNER}.`);
    }
    await tx.membership.delete({ where: { id: target.id } });
    await revokeKeysOf(tx, ctx.workspaceId, userId);
  });
  invalidateSessionCache();
}

/**
 * Display names of the members and API keys that did something (acknowledged an alert, labelled
 * a review item): a member by name or email, a key as API key “name”. One query per kind, only
 * for the ids given.
 */
export async function actorNames(workspaceId: string, actors: { userIds: Iterable<string>; keyIds: Iterable<string> }) {
  const userIds = [...new Set(actors.userIds)];
  const keyIds = [...new Set(actors.keyIds)];
  const [users, keys] = await Promise.all([
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, email: true } }) : [],
    keyIds.length ? db.apiKey.findMany({ where: { id: { in: keyIds }, workspaceId }, select: { id: true, name: true } }) : [],
  ]);
  return new Map<string, string>([
    ...users.map((u) => [u.id, u.name || u.email] as const),
    ...keys.map((k) => [k.id, `API key “${k.name}”`] as const),
  ]);
}
