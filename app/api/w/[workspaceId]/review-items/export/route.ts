import { withSession } from "@/lib/api/handler";
import { downloadResponse, textStream } from "@/lib/api/stream";
import { reviewExportQuery } from "@/lib/review/schemas";
import { exportReviewLabels } from "@/lib/review/service";

/**
 * The Review page's "Export labels (JSONL)" link: the same download as
 * GET /api/v1/review-items/export, with the member's session instead of an API key.
 */
export const GET = withSession({
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
