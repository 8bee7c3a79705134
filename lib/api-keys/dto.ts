import type { Prisma } from "@/lib/generated/prisma/client";
import type { Role } from "@/lib/auth/roles";

/**
 * The API key's public shapes: the Prisma `select` (never the key hash) and the DTO type the
 * settings page lists. No server-only imports: client components may import them.
 */

export const apiKeySelect = {
  id: true,
  name: true,
  role: true,
  scope: true,
  prefix: true,
  lastUsedAt: true,
  revokedAt: true,
  expiresAt: true,
  createdAt: true,
} as const satisfies Prisma.ApiKeySelect;

export type ApiKeyDto = Prisma.ApiKeyGetPayload<{ select: typeof apiKeySelect }>;

/**
 * A key as the settings page lists it: its own role and the role it acts with now, which is at
 * most its creator's current role in the workspace (null: the creator is no longer a member, so
 * the key is refused).
 */
export type ApiKeyListItem = ApiKeyDto & { effectiveRole: Role | null };
