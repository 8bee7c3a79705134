import { withApi } from "@/lib/api/handler";
import { labelInput } from "@/lib/review/schemas";
import { labelReviewItem } from "@/lib/review/service";

/** The caller's label (created, or replaced while the item is open); answers the item with the judge revealed. */
export const POST = withApi({
  role: "editor",
  body: labelInput,
  handler: async ({ ctx, params, body }) => ({ json: await labelReviewItem(ctx, params.id!, body) }),
});
