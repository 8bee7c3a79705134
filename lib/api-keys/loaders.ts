import "server-only";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { listApiKeys } from "./service";

/** Settings → API keys: admins only; others see an explanation instead of the keys. */
export async function loadApiKeysPage(ctx: WorkspaceContext) {
  if (!hasRole(ctx.role, "admin")) return { canManage: false, keys: [] } as const;
  return { canManage: true, keys: await listApiKeys(ctx) } as const;
}
