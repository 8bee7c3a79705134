import { z } from "zod";
import { withApi, listResponse } from "@/lib/api/handler";
import { comparisonListQuery } from "@/lib/comparisons/schemas";
import { createComparison, listComparisons } from "@/lib/comparisons/service";

/** The suite's comparisons, newest first. */
export const GET = withApi({
  role: "viewer",
  query: comparisonListQuery,
  handler: async ({ ctx, params, query }) => {
    const page = await listComparisons(ctx, params.id!, query);
    return listResponse(page.data, page.next_cursor);
  },
});

/**
 * Starts a comparison → 202 with the pending comparison. The body is either arms to execute or
 * two runs to pair; the service picks the schema (executeComparisonInput / compareRunsInput) so a
 * 400 names the fields of the body that was meant, not a union's "no match".
 */
export const POST = withApi({
  role: "editor",
  body: z.unknown(),
  handler: async ({ ctx, params, body }) => ({ status: 202, json: await createComparison(ctx, params.id!, body) }),
});
