import { withSession } from "@/lib/api/handler";
import { acceptedAgeMs, jsonAnswer } from "@/lib/runs/live-answers";
import { liveRun } from "@/lib/runs/live-reads";

/** The run (status, totals, summary) for the run page's polling; viewers of a live run share answers (lib/runs/live-answers.ts). */
export const GET = withSession({
  role: "viewer",
  handler: async ({ req, ctx, params }) => jsonAnswer(await liveRun(ctx, params.runId!, acceptedAgeMs(req.headers))),
});
