import { withApi } from "@/lib/api/handler";
import { pinBaseline, unpinBaseline } from "@/lib/alerts/service";

/** Pins the completed run as its suite's regression baseline. */
export const POST = withApi({
  role: "editor",
  handler: async ({ ctx, params }) => ({ json: await pinBaseline(ctx, params.id!) }),
});

/** Unpins it (when it is the suite's baseline): the previous run with the same selection applies again. */
export const DELETE = withApi({
  role: "editor",
  handler: async ({ ctx, params }) => ({ json: await unpinBaseline(ctx, params.id!) }),
});
