/**
 * Workspaces and membership: a member's context in a workspace (`memberContext`), the user's
 * workspaces, settings, creation and first-run setup (`createFirstAdmin`). Called by
 * lib/auth/context.ts for pages and actions, the home redirect and setup. Key rule: a non-member gets
 * NotFound, never a hint that the workspace exists; a member below the role gets Forbidden.
 */
import "server-only";
import { db, pool } from "@/lib/db";
import { ForbiddenError, NotFoundError, ConflictError } from "@/lib/errors";
import { hasRole, requireRole, type Role, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { hashPassword } from "@/lib/auth/password";
import { normaliseEmail } from "@/lib/users/service";
import { hashToken } from "@/lib/crypto";

/**
 * Resolves a member's context in a workspace. Non-members get NotFound (the workspace's
 * existence is not revealed); members below `minRole` get Forbidden.
 */
export async function memberContext(userId: string, workspaceId: string, minRole: Role): Promise<WorkspaceContext> {
  if (!isUuid(workspaceId)) throw new NotFoundError("Workspace");
  const membership = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId, userId } },
    select: { role: true },
  });
  if (!membership) throw new NotFoundError("Workspace");
  if (!hasRole(membership.role, minRole)) throw new ForbiddenError();
  return { workspaceId, role: membership.role, userId, apiKeyId: null };
}

export async function listWorkspacesForUser(userId: string) {
  const rows = await db.membership.findMany({
    where: { userId },
    select: { role: true, workspace: { select: { id: true, name: true } } },
    orderBy: { workspace: { name: "asc" } },
  });
  return rows.map((r) => ({ id: r.workspace.id, name: r.workspace.name, role: r.role }));
}

/**
 * The app shell's reads in one statement on the raw pg pool (it is around every workspace page,
 * so it is read on every page view): the workspace (as `getWorkspace`), the member's workspaces
 * by name (as `listWorkspacesForUser`), their email and how many workspaces they own or
 * administer (lib/workspaces/creation.ts decides from it). Like those, not workspace-scoped: it
 * reads across the user's workspaces; the caller resolved `ctx` from the user's membership.
 */
export async function workspaceShell(ctx: WorkspaceContext) {
  if (!ctx.userId) throw new NotFoundError("Workspace");
  const { rows } = await pool.query<{
    id: string;
    name: string;
    maxTurnsCap: number;
    timeZone: string;
    email: string | null;
    admin_of: number;
    workspaces: { id: string; name: string; role: Role }[];
  }>({
    name: "assay_workspace_shell",
    text: `
      SELECT w."id", w."name", w."maxTurnsCap", w."timeZone",
             (SELECT u."email" FROM "User" u WHERE u."id" = $2::uuid) AS email,
             (SELECT count(*) FROM "Membership" m WHERE m."userId" = $2::uuid AND m."role" IN ('owner', 'admin'))::int AS admin_of,
             coalesce((SELECT json_agg(json_build_object('id', mw."id", 'name', mw."name", 'role', m."role") ORDER BY mw."name")
                       FROM "Membership" m JOIN "Workspace" mw ON mw."id" = m."workspaceId"
                       WHERE m."userId" = $2::uuid), '[]'::json) AS workspaces
      FROM "Workspace" w WHERE w."id" = $1::uuid`,
    values: [ctx.workspaceId, ctx.userId],
  });
  const row = rows[0];
  if (!row) throw new NotFoundError("Workspace");
  const { email, admin_of, workspaces, ...workspace } = row;
  return { workspace, workspaces, email, adminOf: admin_of };
}

export async function getWorkspace(ctx: WorkspaceContext) {
  const ws = await db.workspace.findUnique({
    where: { id: ctx.workspaceId },
    select: { id: true, name: true, maxTurnsCap: true, timeZone: true },
  });
  if (!ws) throw new NotFoundError("Workspace");
  return ws;
}

export async function createWorkspace(userId: string, name: string) {
  return db.workspace.create({
    data: { name, memberships: { create: { userId, role: "owner" } } },
    select: { id: true, name: true },
  });
}

/** Outbound network access is not a workspace setting: it is the instance's (lib/net/service.ts). */
export async function updateWorkspaceSettings(ctx: WorkspaceContext, input: { name: string; maxTurnsCap: number; timeZone?: string }) {
  requireRole(ctx, "admin");
  const data = { name: input.name, maxTurnsCap: input.maxTurnsCap, ...(input.timeZone ? { timeZone: input.timeZone } : {}) };
  return db.$transaction(async (tx) => {
    const before = await tx.workspace.findUnique({ where: { id: ctx.workspaceId }, select: { timeZone: true } });
    const ws = await tx.workspace.update({ where: { id: ctx.workspaceId }, data, select: { id: true, name: true } });
    // A new zone moves every slot: like a schedule change, it starts no catch-up run (lib/runs/scheduler.ts).
    if (input.timeZone && before && before.timeZone !== input.timeZone) {
      await tx.suite.updateMany({ where: { workspaceId: ctx.workspaceId }, data: { scheduleChangedAt: new Date() } });
    }
    return ws;
  });
}

export async function isSetupNeeded(): Promise<boolean> {
  return (await db.user.count()) === 0;
}

export type FirstAdminInput = { email: string; password: string; name?: string | null; workspaceName: string; apiKey?: string };

/**
 * Creates the first user (owner) and workspace, once. A transaction-scoped advisory lock
 * serialises concurrent attempts; the second one sees a user and is refused.
 */
export async function createFirstAdmin(input: FirstAdminInput) {
  // Refuse before hashing: argon2 is the expensive part, and a set-up instance needs none of it.
  if (!(await isSetupNeeded())) throw new ConflictError("Assay is already set up");
  const passwordHash = await hashPassword(input.password);
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(424242)`;
    if ((await tx.user.count()) > 0) throw new ConflictError("Assay is already set up");
    const user = await tx.user.create({
      data: { email: normaliseEmail(input.email), name: input.name ?? null, passwordHash },
      select: { id: true, email: true },
    });
    const workspace = await tx.workspace.create({
      data: { name: input.workspaceName, memberships: { create: { userId: user.id, role: "owner" } } },
      select: { id: true, name: true },
    });
    if (input.apiKey) {
      await tx.apiKey.create({
        data: {
          workspaceId: workspace.id,
          name: "Initial API key",
          role: "admin",
          prefix: input.apiKey.slice(0, 8),
          keyHash: hashToken(input.apiKey),
          createdById: user.id,
        },
      });
    }
    return { user, workspace };
  });
}
