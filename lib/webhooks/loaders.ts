import "server-only";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { ValidationError } from "@/lib/errors";
import { scopedLoader } from "@/lib/tenant-scope";
import type { SearchParams } from "@/lib/pages/props";
import { listDeliveries, listWebhooks } from "./service";

export const DELIVERIES_PAGE_SIZE = 20;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * Settings → Webhooks: admins only. The webhooks, and the delivery log of the one named by
 * `?webhook=` (the first one by default), one page at `?cursor=` (a stale cursor shows the first page).
 */
async function loadWebhooksPageUnscoped(ctx: WorkspaceContext, sp: SearchParams) {
  if (!hasRole(ctx.role, "admin")) return { canManage: false as const };
  const webhooks = await listWebhooks(ctx);
  const wanted = first(sp.webhook);
  const selected = webhooks.find((w) => w.id === wanted) ?? webhooks[0] ?? null;
  const cursor = first(sp.cursor) ?? null;
  let log: Awaited<ReturnType<typeof listDeliveries>> = { data: [], next_cursor: null };
  if (selected) {
    log = await listDeliveries(ctx, selected.id, { cursor: cursor ?? undefined, limit: DELIVERIES_PAGE_SIZE }).catch((err: unknown) => {
      if (err instanceof ValidationError && cursor) return listDeliveries(ctx, selected.id, { limit: DELIVERIES_PAGE_SIZE });
      throw err;
    });
  }
  return { canManage: true as const, webhooks, selected, deliveries: log.data, nextCursor: log.next_cursor, cursor };
}

// Runs its queries in the workspace's row-level scope (lib/tenant-scope.ts).
export const loadWebhooksPage = scopedLoader(loadWebhooksPageUnscoped);
