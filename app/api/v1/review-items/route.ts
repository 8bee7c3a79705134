import { withApi } from "@/lib/api/handler";
import { listRoute } from "@/lib/api/routes";
import { createReviewItemsInput, reviewItemListQuery } from "@/lib/review/schemas";
import { createReviewItems, listReviewItems } from "@/lib/review/service";

/** The review queue, newest first: filter by status, suite, run, assignee, overturned, or the caller's to-do. */
export const GET = listRoute("viewer", reviewItemListQuery, (ctx, query) => listReviewItems(ctx, query));

/** Send case results to review: one item per result (a result already queued is returned as it is). */
export const POST = withApi({
  role: "editor",
  body: createReviewItemsInput,
  handler: async ({ ctx, body }) => ({ status: 201, json: await createReviewItems(ctx, body) }),
});
