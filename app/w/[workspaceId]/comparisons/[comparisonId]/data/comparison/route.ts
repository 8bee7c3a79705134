import { withSession } from "@/lib/api/handler";
import { getComparison } from "@/lib/comparisons/service";

/** The comparison (status, progress, summary) for the comparison page's polling. */
export const GET = withSession({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await getComparison(ctx, params.comparisonId!) }),
});
