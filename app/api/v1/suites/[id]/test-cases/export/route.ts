import { withApi } from "@/lib/api/handler";
import { downloadResponse } from "@/lib/api/stream";
import { exportTestCases, exportTestCasesBundle } from "@/lib/test-cases/import-export";
import { exportTestCasesAs } from "@/lib/test-cases/export-foreign";
import { testCaseExportQuery } from "@/lib/test-cases/schemas";

/**
 * GET ?format=json|yaml|zip|promptfoo|deepeval|langfuse (default json): the suite's cases as a
 * downloadable document (json/yaml streamed; zip: with the uploaded files; the others in that
 * tool's format, with `X-Assay-Not-Exported` counting the cases that could not be written whole).
 */
export const GET = withApi({
  role: "viewer",
  query: testCaseExportQuery,
  handler: async ({ ctx, params, query }) => {
    const noStore = { "cache-control": "no-store" };
    if (query.format === "promptfoo" || query.format === "deepeval" || query.format === "langfuse") {
      const file = await exportTestCasesAs(ctx, params.id ?? "", query.format);
      return downloadResponse(
        { body: file.body, contentType: file.content_type, filename: file.filename },
        { ...noStore, "x-assay-not-exported": String(file.not_exported.length) },
      );
    }
    const file =
      query.format === "zip"
        ? await exportTestCasesBundle(ctx, params.id ?? "")
        : await exportTestCases(ctx, params.id ?? "", query.format);
    // The filename is a slug of the suite name (ASCII letters, digits, dashes).
    return downloadResponse({ body: file.body, contentType: file.content_type, filename: file.filename }, noStore);
  },
});
