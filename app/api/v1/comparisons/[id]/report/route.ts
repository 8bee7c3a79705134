import { withApi } from "@/lib/api/handler";
import { downloadResponse } from "@/lib/api/stream";
import { comparisonReportQuery } from "@/lib/comparisons/schemas";
import { comparisonReport } from "@/lib/comparisons/service";

/** A comparison as the A/B engine's session document (JSON, importable back) or its CSV. */
export const GET = withApi({
  role: "viewer",
  query: comparisonReportQuery,
  handler: async ({ ctx, params, query }) => downloadResponse(await comparisonReport(ctx, params.id!, query.format)),
});
