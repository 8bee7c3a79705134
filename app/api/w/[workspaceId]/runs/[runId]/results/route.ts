import { withSession } from "@/lib/api/handler";
import { caseTableQuery } from "@/lib/runs/schemas";
import { acceptedAgeMs, jsonAnswer } from "@/lib/runs/live-answers";
import { liveCaseRows } from "@/lib/runs/live-reads";

/**
 * The run page's live case table: one page of slim rows (only the columns it shows, with each
 * failure's one-line reason), filtered, searched and sorted in SQL, with the chips' per-status
 * counts; viewers of a live run share answers (lib/runs/live-answers.ts).
 */
export const GET = withSession({
  role: "viewer",
  query: caseTableQuery,
  handler: async ({ req, ctx, params, query }) => jsonAnswer(await liveCaseRows(ctx, params.runId!, query, acceptedAgeMs(req.headers))),
});
