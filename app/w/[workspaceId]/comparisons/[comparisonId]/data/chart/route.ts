import { withSession } from "@/lib/api/handler";
import { comparisonChartData } from "@/lib/comparisons/service";

/** The completed pairs' latencies and token overheads behind the comparison page's charts. */
export const GET = withSession({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await comparisonChartData(ctx, params.comparisonId!) }),
});
