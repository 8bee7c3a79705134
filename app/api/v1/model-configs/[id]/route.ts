import { withApi } from "@/lib/api/handler";
import { getByIdRoute, updateByIdRoute } from "@/lib/api/routes";
import { modelConfigDeleteQuery, modelConfigPatchBody } from "@/lib/model-configs/schemas";
import { deleteModelConfig, getModelConfig, updateModelConfig } from "@/lib/model-configs/service";

export const GET = getByIdRoute("viewer", getModelConfig);

/** Fields left out keep their values; `api_key`: omitted keeps, null or "" removes, a string replaces. */
export const PATCH = updateByIdRoute("admin", modelConfigPatchBody, updateModelConfig);

/** 409 while agents or live suites use the configuration, unless `?force=true`. */
export const DELETE = withApi({
  role: "admin",
  query: modelConfigDeleteQuery,
  handler: async ({ ctx, params, query }) => {
    await deleteModelConfig(ctx, params.id!, { force: query.force });
    return { status: 204, json: null };
  },
});
