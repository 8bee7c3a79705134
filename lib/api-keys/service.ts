/**
 * Workspace API keys for /api/v1 and CI: create (the token is shown once; only its hash and
 * prefix are stored), list, revoke, and `authenticateApiKey`, which turns a bearer token into a
 * workspace context. Called by lib/api/handler.ts and the API key settings page and actions.
 * Every query is scoped by `workspaceId`. A key authenticates only while it is not revoked, not
 * past its optional expiry, and its creator (when recorded) is still a member of the workspace;
 * it acts with its own role or its creator's current one, whichever is lower, looked up on every
 * request, so demoting a member demotes their keys at once. Keys without a recorded creator
 * (rows made before creators were recorded, and test fixtures) keep their own role: there is
 * nobody to cap them by. ASSAY_INIT_API_KEY records the first owner as its creator.
 */
import "server-only";
import { db } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { hashToken, randomToken } from "@/lib/crypto";
import { requireRole, lowerRole, type Role, type WorkspaceContext } from "@/lib/auth/roles";
import { apiKeySelect, type ApiKeyListItem } from "./dto";

/** Bearer token → workspace context; null (→ 401) for unknown, revoked, expired or orphaned keys. */
export async function authenticateApiKey(token: string): Promise<WorkspaceContext | null> {
  if (token.length < 32) return null;
  const key = await db.apiKey.findUnique({
    where: { keyHash: hashToken(token) },
    select: { id: true, workspaceId: true, role: true, scope: true, revokedAt: true, lastUsedAt: true, expiresAt: true, createdById: true },
  });
  if (!key || key.revokedAt) return null;
  if (key.expiresAt && key.expiresAt.getTime() <= Date.now()) return null;
  // A key acts for the member who made it, never above them: once they are removed it stops
  // working, and once they are demoted it acts with their new role.
  const role = await effectiveRole(key.workspaceId, key.role, key.createdById);
  if (!role) return null;
  // Touch lastUsedAt at most once a minute to keep the hot path free of writes.
  if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > 60_000) {
    await db.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: new Date() } });
  }
  return { workspaceId: key.workspaceId, role, userId: null, apiKeyId: key.id, keyScope: key.scope };
}

/** The key's role capped at its creator's current role; null when the creator is no longer a member. */
async function effectiveRole(workspaceId: string, keyRole: Role, createdById: string | null): Promise<Role | null> {
  if (!createdById) return keyRole;
  const creator = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId, userId: createdById } },
    select: { role: true },
  });
  return creator ? lowerRole(keyRole, creator.role) : null;
}

/** The workspace's keys, newest first, each with the role it acts with now. */
export async function listApiKeys(ctx: WorkspaceContext): Promise<ApiKeyListItem[]> {
  requireRole(ctx, "admin");
  const keys = await db.apiKey.findMany({
    where: { workspaceId: ctx.workspaceId },
    select: { ...apiKeySelect, createdById: true },
    orderBy: { createdAt: "desc" },
  });
  const creatorIds = [...new Set(keys.flatMap((k) => (k.createdById ? [k.createdById] : [])))];
  const creators = await db.membership.findMany({
    where: { workspaceId: ctx.workspaceId, userId: { in: creatorIds } },
    select: { userId: true, role: true },
  });
  const roleOf = new Map(creators.map((m) => [m.userId, m.role]));
  return keys.map(({ createdById, ...key }) => {
    if (!createdById) return { ...key, effectiveRole: key.role };
    const creatorRole = roleOf.get(createdById);
    return { ...key, effectiveRole: creatorRole ? lowerRole(key.role, creatorRole) : null };
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Creates a key and returns its plaintext once; only its SHA-256 is stored. */
export async function createApiKey(
  ctx: WorkspaceContext,
  input: { name: string; role: Role; scope?: "full" | "ingest"; expiresInDays?: number | null },
) {
  requireRole(ctx, "admin");
  const token = randomToken("assay_", 32);
  const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * DAY_MS) : null;
  const key = await db.apiKey.create({
    data: {
      workspaceId: ctx.workspaceId,
      name: input.name,
      // An ingest key sends traces, which takes an editor; it can do nothing else (lib/api/handler.ts).
      role: input.scope === "ingest" ? "editor" : input.role === "owner" ? "admin" : input.role,
      scope: input.scope ?? "full",
      prefix: token.slice(0, 12),
      keyHash: hashToken(token),
      createdById: ctx.userId,
      expiresAt,
    },
    select: apiKeySelect,
  });
  return { key, token };
}

export async function revokeApiKey(ctx: WorkspaceContext, id: string) {
  requireRole(ctx, "admin");
  const { count } = await db.apiKey.updateMany({
    where: { id, workspaceId: ctx.workspaceId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw new NotFoundError("API key");
}
