import { readBodyText, withApi } from "@/lib/api/handler";
import { formatFromContentType, importTestCases, parseCasesDocument } from "@/lib/test-cases/import-export";
import { testCaseImportQuery } from "@/lib/test-cases/schemas";
import { MAX_IMPORT_BYTES } from "@/lib/validation/limits";

/**
 * POST a JSON array (or `{test_cases: [...]}`) with Content-Type application/json, or a YAML
 * document with application/yaml or text/yaml. All-or-nothing unless `?valid_only=true`.
 * Bodies over MAX_IMPORT_BYTES (10 MB, the UI import's limit too) get a 413 before they are read in full.
 */
export const POST = withApi({
  role: "editor",
  query: testCaseImportQuery,
  handler: async ({ req, ctx, params, query }) => {
    const raw = parseCasesDocument(await readBodyText(req, MAX_IMPORT_BYTES), formatFromContentType(req.headers.get("content-type")));
    const result = await importTestCases(ctx, params.id ?? "", raw, { validOnly: query.valid_only });
    return { status: 201, json: result };
  },
});
