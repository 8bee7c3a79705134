import { withSession } from "@/lib/api/handler";
import { reviewExportQuery } from "@/lib/review/schemas";
import { reviewLabelsDownload } from "@/lib/review/download";

/** The Review page's "Export labels (JSONL)" link: GET /api/v1/review-items/export with the member's session instead of an API key. */
export const GET = withSession({
  role: "viewer",
  query: reviewExportQuery,
  handler: async ({ ctx, query }) => reviewLabelsDownload(ctx, query),
});
