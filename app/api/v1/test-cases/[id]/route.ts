import { z } from "zod";
import { withApi } from "@/lib/api/handler";
import { deleteTestCase, getTestCase, updateTestCase } from "@/lib/test-cases/service";

export const GET = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await getTestCase(ctx, params.id ?? "") }),
});

/** PATCH: any subset of the fields; archived cases accept only `status`. */
export const PATCH = withApi({
  role: "editor",
  body: z.unknown(),
  handler: async ({ ctx, params, body }) => ({ json: await updateTestCase(ctx, params.id ?? "", body) }),
});

/** DELETE: soft delete (POST …/restore brings it back). */
export const DELETE = withApi({
  role: "editor",
  handler: async ({ ctx, params }) => {
    await deleteTestCase(ctx, params.id ?? "");
    return { status: 204, json: null };
  },
});
