import { z } from "zod";
import { listResponse, withApi } from "@/lib/api/handler";
import { ValidationError, zodIssues } from "@/lib/errors";
import { testCaseListQuery } from "@/lib/test-cases/schemas";
import { createTestCase, listTestCases } from "@/lib/test-cases/service";

/** GET: a suite's cases. `tag` may repeat (`?tag=a&tag=b`) or be a comma list; `tag_match=any|all`. */
export const GET = withApi({
  role: "viewer",
  handler: async ({ req, ctx, params }) => {
    const search = req.nextUrl.searchParams;
    const tags = search.getAll("tag");
    const parsed = testCaseListQuery.safeParse({ ...Object.fromEntries(search), tag: tags.length > 0 ? tags : undefined });
    if (!parsed.success) throw new ValidationError("Invalid query", zodIssues(parsed.error));
    const page = await listTestCases(ctx, params.id ?? "", parsed.data);
    return listResponse(page.data, page.next_cursor);
  },
});

/** POST: one case (the test case format fields + checks/mode/ground_truth) → 201 with the case. */
export const POST = withApi({
  role: "editor",
  body: z.unknown(),
  handler: async ({ ctx, params, body }) => ({ status: 201, json: await createTestCase(ctx, params.id ?? "", body) }),
});
