import { withApi } from "@/lib/api/handler";
import { buildRunReport } from "@/lib/runs/report";
import { runReportQuery } from "@/lib/runs/schemas";

/** A run as JSON (the execution model report), Markdown, CSV or JUnit XML. */
export const GET = withApi({
  role: "viewer",
  query: runReportQuery,
  handler: async ({ ctx, params, query }) => {
    const report = await buildRunReport(ctx, params.id!, query.format);
    return new Response(report.body, {
      status: 200,
      headers: { "content-type": report.contentType, "content-disposition": `attachment; filename="${report.filename}"` },
    });
  },
});
