import { withApi } from "@/lib/api/handler";
import { acknowledgeAlert } from "@/lib/alerts/service";

/** Any member (viewer and up) acknowledges an alert; who and when are recorded. */
export const POST = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await acknowledgeAlert(ctx, params.id!) }),
});
