import { withApi } from "@/lib/api/handler";
import { runChangeDetails } from "@/lib/runs/change-details";

export const GET = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await runChangeDetails(ctx, params.id!) }),
});
