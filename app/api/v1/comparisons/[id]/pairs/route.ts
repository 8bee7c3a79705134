import { withApi, listResponse } from "@/lib/api/handler";
import { pairListQuery } from "@/lib/comparisons/schemas";
import { listPairs } from "@/lib/comparisons/service";

/** A comparison's pairs, optionally filtered by verdict change and sorted by a diff. */
export const GET = withApi({
  role: "viewer",
  query: pairListQuery,
  handler: async ({ ctx, params, query }) => {
    const page = await listPairs(ctx, params.id!, query);
    return listResponse(page.data, page.next_cursor);
  },
});
