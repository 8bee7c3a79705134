import { withSession } from "@/lib/api/handler";
import { runCasesQuery } from "@/lib/runs/schemas";
import { acceptedAgeMs, jsonAnswer } from "@/lib/runs/live-answers";
import { liveRunCases } from "@/lib/runs/live-reads";

/**
 * The run page's live per-case table (runs with several trials): one page of test cases with
 * their trial marks and stability, filterable by stability and tag; viewers of a live run share
 * answers (lib/runs/live-answers.ts).
 */
export const GET = withSession({
  role: "viewer",
  query: runCasesQuery,
  handler: async ({ req, ctx, params, query }) => jsonAnswer(await liveRunCases(ctx, params.runId!, query, acceptedAgeMs(req.headers))),
});
