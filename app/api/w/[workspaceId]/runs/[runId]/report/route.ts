import { z } from "zod";
import { withSession } from "@/lib/api/handler";
import { buildRunReport, REPORT_FORMATS } from "@/lib/runs/report";

/** The run report as a download: JSON (the execution model), Markdown, CSV or JUnit XML. */
export const GET = withSession({
  role: "viewer",
  query: z.object({ format: z.enum(REPORT_FORMATS).default("json") }),
  handler: async ({ ctx, params, query }) => {
    const report = await buildRunReport(ctx, params.runId!, query.format);
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
