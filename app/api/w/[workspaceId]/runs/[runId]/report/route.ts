import { z } from "zod";
import { withSession } from "@/lib/api/handler";
import { downloadResponse } from "@/lib/api/stream";
import { buildRunReport, REPORT_FORMATS } from "@/lib/runs/report";

/** The run report as a download: JSON (the execution model), Markdown, CSV or JUnit XML. */
export const GET = withSession({
  role: "viewer",
  query: z.object({ format: z.enum(REPORT_FORMATS).default("json") }),
  handler: async ({ ctx, params, query }) =>
    downloadResponse(await buildRunReport(ctx, params.runId!, query.format), { "cache-control": "no-store" }),
});
