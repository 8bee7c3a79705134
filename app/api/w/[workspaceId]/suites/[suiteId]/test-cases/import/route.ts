import { withSession } from "@/lib/api/handler";
import { importFromRequest } from "@/lib/test-cases/import-file";
import { testCaseImportQuery } from "@/lib/test-cases/schemas";

/** The suite page's import dialog: POST /api/v1/suites/{id}/test-cases/import with the member's session instead of an API key. */
export const POST = withSession({
  role: "editor",
  query: testCaseImportQuery,
  handler: ({ req, ctx, params, query }) => importFromRequest(req, ctx, params.suiteId ?? "", query),
});
