import { withSession } from "@/lib/api/handler";
import { caseResultListQuery } from "@/lib/runs/schemas";
import { listCaseResultRows } from "@/lib/runs/case-results";

/** The run page's live table: one page of slim rows (only the columns it shows), filterable by status and tag. */
export const GET = withSession({
  role: "viewer",
  query: caseResultListQuery,
  handler: async ({ ctx, params, query }) => ({ json: await listCaseResultRows(ctx, params.runId!, query) }),
});
