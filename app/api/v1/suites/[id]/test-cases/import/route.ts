import { z } from "zod";
import { withApi } from "@/lib/api/handler";
import { formatFromContentType, importTestCases, parseCasesDocument } from "@/lib/test-cases/import-export";

/**
 * POST a JSON array (or `{test_cases: [...]}`) with Content-Type application/json, or a YAML
 * document with application/yaml or text/yaml. All-or-nothing unless `?valid_only=true`.
 */
export const POST = withApi({
  role: "editor",
  query: z.object({
    valid_only: z
      .enum(["true", "false", "1", "0"], { error: "valid_only must be true or false" })
      .optional()
      .transform((v) => v === "true" || v === "1"),
  }),
  handler: async ({ req, ctx, params, query }) => {
    const raw = parseCasesDocument(await req.text(), formatFromContentType(req.headers.get("content-type")));
    const result = await importTestCases(ctx, params.id ?? "", raw, { validOnly: query.valid_only });
    return { status: 201, json: result };
  },
});
