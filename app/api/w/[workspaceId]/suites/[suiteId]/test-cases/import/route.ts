import { readBodyBytes, withSession } from "@/lib/api/handler";
import { importUploadLimit, importCasesFile } from "@/lib/test-cases/import-file";
import { testCaseImportQuery } from "@/lib/test-cases/schemas";

/** The suite page's import dialog: POST /api/v1/suites/{id}/test-cases/import with the member's session instead of an API key. */
export const POST = withSession({
  role: "editor",
  query: testCaseImportQuery,
  handler: async ({ req, ctx, params, query }) => {
    const contentType = req.headers.get("content-type");
    const bytes = await readBodyBytes(req, importUploadLimit(contentType));
    const report = await importCasesFile(
      ctx,
      params.suiteId ?? "",
      { bytes, contentType },
      {
        format: query.format,
        validOnly: query.valid_only,
        dryRun: query.dry_run,
      },
    );
    return { status: query.dry_run ? 200 : 201, json: report };
  },
});
