import { withApi } from "@/lib/api/handler";
import { exportTestCases } from "@/lib/test-cases/import-export";
import { testCaseExportQuery } from "@/lib/test-cases/schemas";

/** GET ?format=json|yaml (default json): the suite's cases as a downloadable document. */
export const GET = withApi({
  role: "viewer",
  query: testCaseExportQuery,
  handler: async ({ ctx, params, query }) => {
    const file = await exportTestCases(ctx, params.id ?? "", query.format);
    return new Response(file.body, {
      status: 200,
      headers: {
        "content-type": file.content_type,
        "content-disposition": `attachment; filename="${file.filename}"`,
        "cache-control": "no-store",
      },
    });
  },
});
