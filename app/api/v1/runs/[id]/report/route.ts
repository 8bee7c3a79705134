import { withApi } from "@/lib/api/handler";
import { downloadResponse } from "@/lib/api/stream";
import { buildRunReport } from "@/lib/runs/report";
import { runReportQuery } from "@/lib/runs/schemas";

/** A run as JSON (the execution model report), Markdown, CSV or JUnit XML. */
export const GET = withApi({
  role: "viewer",
  query: runReportQuery,
  handler: async ({ ctx, params, query }) => downloadResponse(await buildRunReport(ctx, params.id!, query.format)),
});
