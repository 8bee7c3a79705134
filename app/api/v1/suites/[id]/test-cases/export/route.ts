import { withApi } from "@/lib/api/handler";
import { downloadResponse } from "@/lib/api/stream";
import { exportTestCases, exportTestCasesBundle } from "@/lib/test-cases/import-export";
import { testCaseExportQuery } from "@/lib/test-cases/schemas";

/** GET ?format=json|yaml|zip (default json): the suite's cases as a downloadable document (json/yaml streamed; zip: with the uploaded files). */
export const GET = withApi({
  role: "viewer",
  query: testCaseExportQuery,
  handler: async ({ ctx, params, query }) => {
    const file =
      query.format === "zip"
        ? await exportTestCasesBundle(ctx, params.id ?? "")
        : await exportTestCases(ctx, params.id ?? "", query.format);
    // The filename is a slug of the suite name (ASCII letters, digits, dashes).
    return downloadResponse({ body: file.body, contentType: file.content_type, filename: file.filename }, { "cache-control": "no-store" });
  },
});
