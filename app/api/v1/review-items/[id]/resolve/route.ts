import { withApi } from "@/lib/api/handler";
import { resolveInput } from "@/lib/review/schemas";
import { resolveReviewItem } from "@/lib/review/service";

/** An admin's verdict on an item in conflict: the result gets it as its human verdict. */
export const POST = withApi({
  role: "admin",
  body: resolveInput,
  handler: async ({ ctx, params, body }) => ({ json: await resolveReviewItem(ctx, params.id!, body) }),
});
