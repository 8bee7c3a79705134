import { withSession } from "@/lib/api/handler";
import { pairListQuery } from "@/lib/comparisons/schemas";
import { listPairs } from "@/lib/comparisons/service";

/** A page of the comparison's pairs for the pairs table: the API's sorts and verdict-change filter. */
export const GET = withSession({
  role: "viewer",
  query: pairListQuery,
  handler: async ({ ctx, params, query }) => ({ json: await listPairs(ctx, params.comparisonId!, query) }),
});
