import "server-only";
import { downloadResponse, textStream } from "@/lib/api/stream";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { exportReviewLabels } from "./service";

/** The labels export as a streamed JSONL download: GET /api/v1/review-items/export and the Review page's link. */
export function reviewLabelsDownload(ctx: WorkspaceContext, query: { suite_id?: string; run_id?: string }): Response {
  return downloadResponse(
    {
      body: textStream(exportReviewLabels(ctx, query), { export: "review-labels" }),
      contentType: "application/x-ndjson",
      filename: "review-labels.jsonl",
    },
    { "cache-control": "no-store" },
  );
}
