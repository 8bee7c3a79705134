import { withApi } from "@/lib/api/handler";
import { exportTestCases, exportTestCasesBundle } from "@/lib/test-cases/import-export";
import { testCaseExportQuery } from "@/lib/test-cases/schemas";

/** GET ?format=json|yaml|zip (default json): the suite's cases as a downloadable document (zip: with the uploaded files). */
export const GET = withApi({
  role: "viewer",
  query: testCaseExportQuery,
  handler: async ({ ctx, params, query }) => {
    const file =
      query.format === "zip"
        ? await exportTestCasesBundle(ctx, params.id ?? "")
        : await exportTestCases(ctx, params.id ?? "", query.format);
    return new Response(typeof file.body === "string" ? file.body : new Uint8Array(file.body), {
      status: 200,
      headers: {
        "content-type": file.content_type,
        // The filename is a slug of the suite name (ASCII letters, digits, dashes).
        "content-disposition": `attachment; filename="${file.filename}"`,
        "cache-control": "no-store",
      },
    });
  },
});
