import { withSession } from "@/lib/api/handler";
import { changesSincePreviousRun } from "@/lib/runs/service";

/** Regressions (pass→fail) and fixes (fail→pass) since the suite's previous completed run. */
export const GET = withSession({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await changesSincePreviousRun(ctx, params.runId!) }),
});
