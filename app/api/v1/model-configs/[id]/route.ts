import { withApi } from "@/lib/api/handler";
import { modelConfigDeleteQuery, modelConfigPatchBody } from "@/lib/model-configs/schemas";
import { deleteModelConfig, getModelConfig, updateModelConfig } from "@/lib/model-configs/service";

export const GET = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await getModelConfig(ctx, params.id!) }),
});

/** Fields left out keep their values; `api_key`: omitted keeps, null or "" removes, a string replaces. */
export const PATCH = withApi({
  role: "admin",
  body: modelConfigPatchBody,
  handler: async ({ ctx, params, body }) => ({ json: await updateModelConfig(ctx, params.id!, body) }),
});

/** 409 while agents or live suites use the configuration, unless `?force=true`. */
export const DELETE = withApi({
  role: "admin",
  query: modelConfigDeleteQuery,
  handler: async ({ ctx, params, query }) => {
    await deleteModelConfig(ctx, params.id!, { force: query.force });
    return { status: 204, json: null };
  },
});
