import { z } from "zod";
import { withApi } from "@/lib/api/handler";
import { listRoute } from "@/lib/api/routes";
import { comparisonListQuery } from "@/lib/comparisons/schemas";
import { createComparison, listComparisons } from "@/lib/comparisons/service";

/** The suite's comparisons, newest first. */
export const GET = listRoute("viewer", comparisonListQuery, (ctx, query, params) => listComparisons(ctx, params.id!, query));

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
