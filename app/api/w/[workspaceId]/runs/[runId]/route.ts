import { withSession } from "@/lib/api/handler";
import { getRun } from "@/lib/runs/service";

/** The run (status, totals, summary) for the run page's polling. */
export const GET = withSession({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await getRun(ctx, params.runId!) }),
});
