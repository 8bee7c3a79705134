import { withApi } from "@/lib/api/handler";
import { comparisonReportQuery } from "@/lib/comparisons/schemas";
import { comparisonReport } from "@/lib/comparisons/service";

/** A comparison as the A/B engine's session document (JSON, importable back) or its CSV. */
export const GET = withApi({
  role: "viewer",
  query: comparisonReportQuery,
  handler: async ({ ctx, params, query }) => {
    const report = await comparisonReport(ctx, params.id!, query.format);
    return new Response(report.body, {
      status: 200,
      headers: { "content-type": report.contentType, "content-disposition": `attachment; filename="${report.filename}"` },
    });
  },
});
