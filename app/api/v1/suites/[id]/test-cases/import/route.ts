import { withApi } from "@/lib/api/handler";
import { formatFromContentType, importTestCases, parseCasesDocument } from "@/lib/test-cases/import-export";
import { testCaseImportQuery } from "@/lib/test-cases/schemas";

/**
 * POST a JSON array (or `{test_cases: [...]}`) with Content-Type application/json, or a YAML
 * document with application/yaml or text/yaml. All-or-nothing unless `?valid_only=true`.
 */
export const POST = withApi({
  role: "editor",
  query: testCaseImportQuery,
  handler: async ({ req, ctx, params, query }) => {
    const raw = parseCasesDocument(await req.text(), formatFromContentType(req.headers.get("content-type")));
    const result = await importTestCases(ctx, params.id ?? "", raw, { validOnly: query.valid_only });
    return { status: 201, json: result };
  },
});
