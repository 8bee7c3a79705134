import { withApi, listResponse } from "@/lib/api/handler";
import { caseResultListQuery } from "@/lib/runs/schemas";
import { listCaseResults } from "@/lib/runs/service";

/** A page of the run's case results; transcripts only with `?include=transcript`. */
export const GET = withApi({
  role: "viewer",
  query: caseResultListQuery,
  handler: async ({ ctx, params, query }) => {
    const page = await listCaseResults(ctx, params.id!, query);
    return listResponse(page.data, page.next_cursor);
  },
});
