import { withApi } from "@/lib/api/handler";
import { reviewExportQuery } from "@/lib/review/schemas";
import { reviewLabelsDownload } from "@/lib/review/download";

/** The labels of closed review items as JSON Lines (case, transcript, judge and human verdicts, comments), streamed. */
export const GET = withApi({
  role: "viewer",
  query: reviewExportQuery,
  handler: async ({ ctx, query }) => reviewLabelsDownload(ctx, query),
});
