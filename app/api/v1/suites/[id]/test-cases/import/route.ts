import { readBodyBytes, readBodyText, withApi } from "@/lib/api/handler";
import { MAX_BUNDLE_BYTES } from "@/lib/files/bundle";
import { formatFromContentType, importTestCases, importTestCasesBundle, parseCasesDocument } from "@/lib/test-cases/import-export";
import { testCaseImportQuery } from "@/lib/test-cases/schemas";
import { MAX_IMPORT_BYTES } from "@/lib/validation/limits";

/**
 * POST a JSON array (or `{test_cases: [...]}`) with Content-Type application/json, a YAML
 * document with application/yaml or text/yaml, or the zip export (application/zip: the cases
 * with their uploaded files). All-or-nothing unless `?valid_only=true`. Documents over
 * MAX_IMPORT_BYTES (10 MB, the UI import's limit too) and zips over MAX_BUNDLE_BYTES get a 413
 * before they are read in full.
 */
export const POST = withApi({
  role: "editor",
  query: testCaseImportQuery,
  handler: async ({ req, ctx, params, query }) => {
    const type = req.headers.get("content-type");
    if (/^application\/(x-)?zip(-compressed)?\b/i.test(type ?? "")) {
      const zip = await readBodyBytes(req, MAX_BUNDLE_BYTES);
      return { status: 201, json: await importTestCasesBundle(ctx, params.id ?? "", zip, { validOnly: query.valid_only }) };
    }
    const raw = parseCasesDocument(await readBodyText(req, MAX_IMPORT_BYTES), formatFromContentType(type));
    const result = await importTestCases(ctx, params.id ?? "", raw, { validOnly: query.valid_only });
    return { status: 201, json: result };
  },
});
