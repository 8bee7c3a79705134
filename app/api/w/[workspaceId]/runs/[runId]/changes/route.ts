import { withSession } from "@/lib/api/handler";
import { acceptedAgeMs, jsonAnswer } from "@/lib/runs/live-answers";
import { liveChanges } from "@/lib/runs/live-reads";

/**
 * Regressions (pass→fail) and fixes (fail→pass) since the suite's previous completed run;
 * viewers of a live run share answers (lib/runs/live-answers.ts).
 */
export const GET = withSession({
  role: "viewer",
  handler: async ({ req, ctx, params }) => jsonAnswer(await liveChanges(ctx, params.runId!, acceptedAgeMs(req.headers))),
});
