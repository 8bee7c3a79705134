import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * The API key's public shapes: the Prisma `select` (never the key hash) and the DTO type the
 * settings page lists. No server-only imports: client components may import them.
 */

export const apiKeySelect = {
  id: true,
  name: true,
  role: true,
  prefix: true,
  lastUsedAt: true,
  revokedAt: true,
  expiresAt: true,
  createdAt: true,
} as const satisfies Prisma.ApiKeySelect;

export type ApiKeyDto = Prisma.ApiKeyGetPayload<{ select: typeof apiKeySelect }>;
