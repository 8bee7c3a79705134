import { withSession } from "@/lib/api/handler";
import { acceptedAgeMs, jsonAnswer } from "@/lib/runs/live-answers";
import { liveCaseResult } from "@/lib/runs/live-reads";

/**
 * One case result with transcript, verdicts and every LLM call (exact request and raw response);
 * viewers of an open case share answers (lib/runs/live-answers.ts).
 */
export const GET = withSession({
  role: "viewer",
  handler: async ({ req, ctx, params }) => jsonAnswer(await liveCaseResult(ctx, params.id!, acceptedAgeMs(req.headers))),
});
