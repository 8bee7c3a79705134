import { withApi } from "@/lib/api/handler";
import { caseTableQuery } from "@/lib/runs/schemas";
import { listCaseTable } from "@/lib/runs/case-table";

/** A run's case table for triage: filtered, searched, sorted (failures first), one offset page with per-status counts. */
export const GET = withApi({
  role: "viewer",
  query: caseTableQuery,
  handler: async ({ ctx, params, query }) => ({ json: await listCaseTable(ctx, params.id!, query) }),
});
