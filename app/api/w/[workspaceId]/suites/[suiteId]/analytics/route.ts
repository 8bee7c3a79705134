import { withSession } from "@/lib/api/handler";
import { getSuiteAnalytics, suiteAnalyticsQuery } from "@/lib/runs/analytics";

/** Pass-rate trend, metric averages and tag pass rates for the suite's run history page (polled). */
export const GET = withSession({
  role: "viewer",
  query: suiteAnalyticsQuery,
  handler: async ({ ctx, params, query }) => ({
    json: await getSuiteAnalytics(ctx, params.suiteId!, { runs: query.runs, tagRuns: query.tag_runs }),
  }),
});
