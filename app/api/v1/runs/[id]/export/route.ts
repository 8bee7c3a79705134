import { withApi } from "@/lib/api/handler";
import { downloadResponse } from "@/lib/api/stream";
import { exportRunOpenAiJsonl } from "@/lib/runs/export-openai";
import { runExportQuery } from "@/lib/runs/schemas";

/** GET ?format=openai-jsonl: the run's transcripts, one conversation per line (lib/runs/export-openai.ts), streamed. */
export const GET = withApi({
  role: "viewer",
  query: runExportQuery,
  handler: async ({ ctx, params }) => {
    const file = await exportRunOpenAiJsonl(ctx, params.id ?? "");
    return downloadResponse({ body: file.body, contentType: file.content_type, filename: file.filename }, { "cache-control": "no-store" });
  },
});
