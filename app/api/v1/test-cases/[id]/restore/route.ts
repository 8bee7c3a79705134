import { withApi } from "@/lib/api/handler";
import { restoreTestCase } from "@/lib/test-cases/service";

/** POST: undo a soft delete. */
export const POST = withApi({
  role: "editor",
  handler: async ({ ctx, params }) => ({ json: await restoreTestCase(ctx, params.id ?? "") }),
});
