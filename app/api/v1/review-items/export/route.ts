import { withApi } from "@/lib/api/handler";
import { downloadResponse, textStream } from "@/lib/api/stream";
import { reviewExportQuery } from "@/lib/review/schemas";
import { exportReviewLabels } from "@/lib/review/service";

/** The labels of closed review items as JSON Lines (case, transcript, judge and human verdicts, comments), streamed. */
export const GET = withApi({
  role: "viewer",
  query: reviewExportQuery,
  handler: async ({ ctx, query }) =>
    downloadResponse(
      {
        body: textStream(exportReviewLabels(ctx, query), { export: "review-labels" }),
        contentType: "application/x-ndjson",
        filename: "review-labels.jsonl",
      },
      { "cache-control": "no-store" },
    ),
});
