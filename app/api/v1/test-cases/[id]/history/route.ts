import { withApi } from "@/lib/api/handler";
import { caseHistoryQuery } from "@/lib/runs/schemas";
import { caseHistory } from "@/lib/runs/trial-reads";

/** The case's last results in its suite's history, newest first, with its flip rate. */
export const GET = withApi({
  role: "viewer",
  query: caseHistoryQuery,
  handler: async ({ ctx, params, query }) => ({ json: await caseHistory(ctx, params.id!, query.limit) }),
});
