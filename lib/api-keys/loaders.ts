import "server-only";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { listApiKeys } from "./service";
import { scopedLoader } from "@/lib/tenant-scope";

/** Settings → API keys: admins only; others see an explanation instead of the keys. */
async function loadApiKeysPageUnscoped(ctx: WorkspaceContext) {
  if (!hasRole(ctx.role, "admin")) return { canManage: false, keys: [] } as const;
  const now = Date.now();
  const keys = (await listApiKeys(ctx)).map((k) => ({ ...k, expired: k.expiresAt !== null && k.expiresAt.getTime() <= now }));
  return { canManage: true, keys } as const;
}

// Each page loader runs its queries in the workspace's row-level scope (lib/tenant-scope.ts).
export const loadApiKeysPage = scopedLoader(loadApiKeysPageUnscoped);
