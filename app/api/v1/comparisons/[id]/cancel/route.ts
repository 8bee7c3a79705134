import { withApi } from "@/lib/api/handler";
import { cancelComparison } from "@/lib/comparisons/service";

export const POST = withApi({
  role: "editor",
  handler: async ({ ctx, params }) => ({ json: await cancelComparison(ctx, params.id!) }),
});
