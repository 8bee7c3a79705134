import type { z } from "zod";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { createdShareLink, shareLinkResource } from "./openapi";

/**
 * A share link's public shapes: the Prisma `select` (never the token hash) and the API's DTO.
 * No server-only imports: the share dialog imports the types.
 */

/** The API's resources, defined once by their zod schemas (./openapi.ts). */
export type ShareLinkDto = z.output<typeof shareLinkResource>;
/** The answer to creating a link: the only time its token (and the page's path) is shown. */
export type CreatedShareLink = z.output<typeof createdShareLink>;

export type ShareKind = ShareLinkDto["kind"];
export type ShareTarget = { kind: ShareKind; id: string };
export type ShareLinkStatus = ShareLinkDto["status"];

export const shareLinkSelect = {
  id: true,
  runId: true,
  comparisonId: true,
  expiresAt: true,
  revokedAt: true,
  createdAt: true,
  lastViewedAt: true,
} as const satisfies Prisma.ShareLinkSelect;

type ShareLinkRow = Prisma.ShareLinkGetPayload<{ select: typeof shareLinkSelect }>;

export function toShareLinkDto(row: ShareLinkRow, now = Date.now()): ShareLinkDto {
  const status: ShareLinkStatus = row.revokedAt ? "revoked" : row.expiresAt.getTime() <= now ? "expired" : "active";
  return {
    id: row.id,
    kind: row.runId ? "run" : "comparison",
    target_id: (row.runId ?? row.comparisonId)!,
    status,
    expires_at: row.expiresAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    last_viewed_at: row.lastViewedAt?.toISOString() ?? null,
  };
}
