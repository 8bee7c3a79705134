import { z } from "zod";
import { withApi } from "@/lib/api/handler";
import { deleteSuite, getSuite, updateSuite } from "@/lib/suites/service";

export const GET = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await getSuite(ctx, params.id!) }),
});

/** Partial update: the given fields over the stored suite; `agent_id` cannot change. */
export const PATCH = withApi({
  role: "editor",
  body: z.unknown(),
  handler: async ({ ctx, params, body }) => ({ json: await updateSuite(ctx, params.id!, body) }),
});

/** Soft delete: the suite moves to the trash (`GET /api/v1/suites?deleted=true`). */
export const DELETE = withApi({
  role: "editor",
  handler: async ({ ctx, params }) => {
    await deleteSuite(ctx, params.id!);
    return { status: 204, json: null };
  },
});
