/**
 * Workspace API keys for /api/v1 and CI: create (the token is shown once; only its hash and
 * prefix are stored), list, revoke, and `authenticateApiKey`, which turns a bearer token into a
 * workspace context. Called by lib/api/handler.ts and the API key settings page and actions.
 * Every query is scoped by `workspaceId`. A key authenticates only while it is not revoked, not
 * past its optional expiry, and its creator (when recorded) is still a member of the workspace.
 */
import "server-only";
import { db } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { hashToken, randomToken } from "@/lib/crypto";
import type { Role, WorkspaceContext } from "@/lib/auth/roles";
import { requireRole } from "@/lib/workspaces/service";
import { apiKeySelect, type ApiKeyDto } from "./dto";

/** Bearer token → workspace context; null (→ 401) for unknown, revoked, expired or orphaned keys. */
export async function authenticateApiKey(token: string): Promise<WorkspaceContext | null> {
  if (token.length < 32) return null;
  const key = await db.apiKey.findUnique({
    where: { keyHash: hashToken(token) },
    select: { id: true, workspaceId: true, role: true, revokedAt: true, lastUsedAt: true, expiresAt: true, createdById: true },
  });
  if (!key || key.revokedAt) return null;
  if (key.expiresAt && key.expiresAt.getTime() <= Date.now()) return null;
  // A key acts for the member who made it: once they are removed, it stops working. Keys
  // without a recorded creator (ASSAY_INIT_API_KEY before users existed) are not tied to one.
  if (key.createdById) {
    const creator = await db.membership.findUnique({
      where: { workspaceId_userId: { workspaceId: key.workspaceId, userId: key.createdById } },
      select: { id: true },
    });
    if (!creator) return null;
  }
  // Touch lastUsedAt at most once a minute to keep the hot path free of writes.
  if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > 60_000) {
    await db.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: new Date() } });
  }
  return { workspaceId: key.workspaceId, role: key.role, userId: null, apiKeyId: key.id };
}

export async function listApiKeys(ctx: WorkspaceContext): Promise<ApiKeyDto[]> {
  requireRole(ctx, "admin");
  return db.apiKey.findMany({
    where: { workspaceId: ctx.workspaceId },
    select: apiKeySelect,
    orderBy: { createdAt: "desc" },
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Creates a key and returns its plaintext once; only its SHA-256 is stored. */
export async function createApiKey(ctx: WorkspaceContext, input: { name: string; role: Role; expiresInDays?: number | null }) {
  requireRole(ctx, "admin");
  const token = randomToken("assay_", 32);
  const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * DAY_MS) : null;
  const key = await db.apiKey.create({
    data: {
      workspaceId: ctx.workspaceId,
      name: input.name,
      role: input.role === "owner" ? "admin" : input.role,
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
