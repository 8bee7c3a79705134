/**
 * Read-only share links: a run report or a comparison shown to someone without an account, at
 * /share/<token>. Only the token's SHA-256 is stored (as for API keys and invitations), so the
 * database never holds a working link; the token is returned once, when the link is made.
 * A link works while it is not expired, not revoked, and its workspace still allows sharing
 * (off by default; admins turn it on). Editors make and revoke links; every member lists them.
 */
import "server-only";
import { db } from "@/lib/db";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { hashToken, randomToken } from "@/lib/crypto";
import { isUuid } from "@/lib/ids";
import { shareLinkSelect, toShareLinkDto, type CreatedShareLink, type ShareLinkDto, type ShareTarget } from "./dto";

export const SHARING_OFF_MESSAGE = "Sharing is turned off for this workspace: an admin can turn it on in the workspace settings";

const DAY_MS = 24 * 60 * 60 * 1000;
const TOKEN_PREFIX = "shr_";

/** Whether the workspace allows share links (a missing workspace allows nothing). */
export async function sharingEnabled(workspaceId: string): Promise<boolean> {
  const ws = await db.workspace.findUnique({ where: { id: workspaceId }, select: { sharingEnabled: true } });
  return ws?.sharingEnabled ?? false;
}

/** Admins turn sharing on or off; turning it off stops every existing link at once (they are kept, not revoked). */
export async function setSharingEnabled(ctx: WorkspaceContext, enabled: boolean): Promise<{ sharingEnabled: boolean }> {
  requireRole(ctx, "admin");
  return db.workspace.update({ where: { id: ctx.workspaceId }, data: { sharingEnabled: enabled }, select: { sharingEnabled: true } });
}

/** The target's row in this workspace, or NotFound (an unknown, malformed or foreign id). */
async function requireTarget(ctx: WorkspaceContext, target: ShareTarget): Promise<void> {
  const label = target.kind === "run" ? "Run" : "Comparison";
  if (!isUuid(target.id)) throw new NotFoundError(label);
  const where = { id: target.id, workspaceId: ctx.workspaceId };
  const found =
    target.kind === "run"
      ? await db.run.findFirst({ where, select: { id: true } })
      : await db.comparison.findFirst({ where, select: { id: true } });
  if (!found) throw new NotFoundError(label);
}

const targetWhere = (target: ShareTarget) => (target.kind === "run" ? { runId: target.id } : { comparisonId: target.id });

/** A new link to the run or comparison, valid for `expiresInDays`; its token is in the answer only this once. */
export async function createShareLink(
  ctx: WorkspaceContext,
  target: ShareTarget,
  input: { expiresInDays: number },
): Promise<CreatedShareLink> {
  requireRole(ctx, "editor");
  await requireTarget(ctx, target);
  if (!(await sharingEnabled(ctx.workspaceId))) throw new ForbiddenError(SHARING_OFF_MESSAGE);
  const token = randomToken(TOKEN_PREFIX, 32);
  const row = await db.shareLink.create({
    data: {
      workspaceId: ctx.workspaceId,
      ...targetWhere(target),
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + input.expiresInDays * DAY_MS),
      createdById: ctx.userId,
    },
    select: shareLinkSelect,
  });
  return { ...toShareLinkDto(row), token, path: sharePath(token) };
}

/** The run's or comparison's links, newest first, with whether each still works. */
export async function listShareLinks(ctx: WorkspaceContext, target: ShareTarget): Promise<ShareLinkDto[]> {
  requireRole(ctx, "viewer");
  await requireTarget(ctx, target);
  const rows = await db.shareLink.findMany({
    where: { workspaceId: ctx.workspaceId, ...targetWhere(target) },
    select: shareLinkSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 100,
  });
  return rows.map((r) => toShareLinkDto(r));
}

/** Revoking stops the link at once; revoking a revoked link changes nothing (the first time is kept). */
export async function revokeShareLink(ctx: WorkspaceContext, id: string): Promise<ShareLinkDto> {
  requireRole(ctx, "editor");
  if (!isUuid(id)) throw new NotFoundError("Share link");
  const existing = await db.shareLink.findFirst({ where: { id, workspaceId: ctx.workspaceId }, select: shareLinkSelect });
  if (!existing) throw new NotFoundError("Share link");
  if (existing.revokedAt) return toShareLinkDto(existing);
  const row = await db.shareLink.update({ where: { id }, data: { revokedAt: new Date() }, select: shareLinkSelect });
  return toShareLinkDto(row);
}

export function sharePath(token: string): string {
  return `/share/${token}`;
}

export type ResolvedShare = { id: string; workspaceId: string; target: ShareTarget };

/**
 * The link a token opens, or null when it is unknown, expired, revoked or its workspace turned
 * sharing off: the public page says the same thing for each, so nothing tells them apart. The
 * token is found by its hash through a unique index (the token itself is never compared), and a
 * token of the wrong shape is refused before any query. Runs outside any workspace scope (the
 * workspace is what the token tells), as invitations by token do.
 */
export async function resolveShareToken(token: string): Promise<ResolvedShare | null> {
  if (!/^shr_[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const row = await db.shareLink.findUnique({
    where: { tokenHash: hashToken(token) },
    select: {
      id: true,
      workspaceId: true,
      runId: true,
      comparisonId: true,
      expiresAt: true,
      revokedAt: true,
      lastViewedAt: true,
      workspace: { select: { sharingEnabled: true } },
    },
  });
  if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now() || !row.workspace.sharingEnabled) return null;
  const target: ShareTarget | null = row.runId
    ? { kind: "run", id: row.runId }
    : row.comparisonId
      ? { kind: "comparison", id: row.comparisonId }
      : null;
  if (!target) return null;
  await touchLastViewed(row.id, row.lastViewedAt);
  return { id: row.id, workspaceId: row.workspaceId, target };
}

/** Notes when the link was last opened, at most once a minute (a page with many viewers writes little). */
async function touchLastViewed(id: string, last: Date | null): Promise<void> {
  if (last && Date.now() - last.getTime() < 60_000) return;
  await db.shareLink.update({ where: { id }, data: { lastViewedAt: new Date() }, select: { id: true } });
}
