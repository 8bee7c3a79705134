import { withSession } from "@/lib/api/handler";
import { comparisonReportQuery } from "@/lib/comparisons/schemas";
import { comparisonReport } from "@/lib/comparisons/service";

/** The comparison report as a download for the signed-in user: the A/B engine's session JSON or CSV. */
export const GET = withSession({
  role: "viewer",
  query: comparisonReportQuery,
  handler: async ({ ctx, params, query }) => {
    const report = await comparisonReport(ctx, params.comparisonId!, query.format);
    return new Response(report.body, {
      status: 200,
      headers: {
        "content-type": report.contentType,
        "content-disposition": `attachment; filename="${report.filename}"`,
        "cache-control": "no-store",
      },
    });
  },
});
