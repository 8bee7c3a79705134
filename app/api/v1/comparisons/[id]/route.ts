import { withApi } from "@/lib/api/handler";
import { getComparison } from "@/lib/comparisons/service";

export const GET = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await getComparison(ctx, params.id!) }),
});
