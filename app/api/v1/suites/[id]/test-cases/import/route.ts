import { withApi } from "@/lib/api/handler";
import { importFromRequest } from "@/lib/test-cases/import-file";
import { testCaseImportQuery } from "@/lib/test-cases/schemas";

/**
 * POST the file as the body. `format=assay` (default): a JSON array (or `{test_cases: [...]}`) with
 * Content-Type application/json, a YAML document with application/yaml or text/yaml, or the zip
 * export (application/zip: the cases with their uploaded files). Another tool's format
 * (`promptfoo`, `langfuse`, `deepeval`, `openai-jsonl`, `inspect`): its file, or for promptfoo a
 * zip of the config with the files it references. All-or-nothing unless `?valid_only=true`;
 * `?dry_run=true` answers 200 with what would be created and writes nothing. Documents over
 * MAX_IMPORT_BYTES (10 MB) and zips over MAX_BUNDLE_BYTES get a 413 before they are read in full.
 */
export const POST = withApi({
  role: "editor",
  query: testCaseImportQuery,
  handler: ({ req, ctx, params, query }) => importFromRequest(req, ctx, params.id ?? "", query),
});
