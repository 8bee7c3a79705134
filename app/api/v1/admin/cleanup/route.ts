import { withApi } from "@/lib/api/handler";
import { cleanupQuery } from "@/lib/retention/schemas";
import { requireInstanceAdmin } from "@/lib/retention/service";
import { runCleanup } from "@/lib/retention/cleanup";

/**
 * Runs the retention cleanup now; `?dry_run=true` only counts what it would delete, and one that
 * would delete more than half of all finished runs needs `?confirm=true` (409 otherwise).
 * Instance admins only.
 */
export const POST = withApi({
  role: "admin",
  query: cleanupQuery,
  handler: async ({ ctx, query }) => {
    await requireInstanceAdmin(ctx);
    return { json: await runCleanup({ dryRun: query.dry_run, confirm: query.confirm, trigger: "manual" }) };
  },
});
