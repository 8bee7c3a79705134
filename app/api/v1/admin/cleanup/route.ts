import { withApi } from "@/lib/api/handler";
import { cleanupQuery } from "@/lib/retention/schemas";
import { requireInstanceAdmin } from "@/lib/retention/service";
import { runCleanup } from "@/lib/retention/cleanup";

/** Runs the retention cleanup now; `?dry_run=true` only counts what it would delete. Instance admins only. */
export const POST = withApi({
  role: "admin",
  query: cleanupQuery,
  handler: async ({ ctx, query }) => {
    await requireInstanceAdmin(ctx);
    return { json: await runCleanup({ dryRun: query.dry_run, trigger: "manual" }) };
  },
});
