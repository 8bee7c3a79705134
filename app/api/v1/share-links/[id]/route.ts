import { withApi } from "@/lib/api/handler";
import { revokeShareLink } from "@/lib/share-links/service";

/** Revokes the link: its page stops working at once. */
export const DELETE = withApi({
  role: "editor",
  handler: async ({ ctx, params }) => ({ json: await revokeShareLink(ctx, params.id!) }),
});
