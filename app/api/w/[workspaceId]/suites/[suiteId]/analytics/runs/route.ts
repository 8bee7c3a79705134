import { withSession } from "@/lib/api/handler";
import { listSuiteRunsPage, suiteRunsQuery } from "@/lib/runs/analytics";

/** One page of the suite's run history as slim table rows (newest first, cursor-paginated). */
export const GET = withSession({
  role: "viewer",
  query: suiteRunsQuery,
  handler: async ({ ctx, params, query }) => ({ json: await listSuiteRunsPage(ctx, params.suiteId!, query) }),
});
