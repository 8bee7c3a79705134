import { withSession } from "@/lib/api/handler";
import { caseResultListQuery } from "@/lib/runs/schemas";
import { acceptedAgeMs, jsonAnswer } from "@/lib/runs/live-answers";
import { liveCaseRows } from "@/lib/runs/live-reads";

/**
 * The run page's live table: one page of slim rows (only the columns it shows), filterable by
 * status and tag; viewers of a live run share answers (lib/runs/live-answers.ts).
 */
export const GET = withSession({
  role: "viewer",
  query: caseResultListQuery,
  handler: async ({ req, ctx, params, query }) => jsonAnswer(await liveCaseRows(ctx, params.runId!, query, acceptedAgeMs(req.headers))),
});
