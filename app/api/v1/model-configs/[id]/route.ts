import { z } from "zod";
import { withApi } from "@/lib/api/handler";
import { modelConfigPatch } from "@/lib/model-configs/schemas";
import { deleteModelConfig, getModelConfig, updateModelConfig } from "@/lib/model-configs/service";

export const GET = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await getModelConfig(ctx, params.id!) }),
});

/** Fields left out keep their values; `api_key`: omitted keeps, null or "" removes, a string replaces. */
export const PATCH = withApi({
  role: "admin",
  body: modelConfigPatch.default({}),
  handler: async ({ ctx, params, body }) => ({ json: await updateModelConfig(ctx, params.id!, body) }),
});

/** 409 while agents or live suites use the configuration, unless `?force=true`. */
export const DELETE = withApi({
  role: "admin",
  query: z.object({
    force: z.enum(["true", "false"], { error: "force must be true or false" }).optional().transform((v) => v === "true"),
  }),
  handler: async ({ ctx, params, query }) => {
    await deleteModelConfig(ctx, params.id!, { force: query.force });
    return { status: 204, json: null };
  },
});
