import { listResponse, withApi } from "@/lib/api/handler";
import { paginationQuery } from "@/lib/api/query";
import { modelConfigInput } from "@/lib/model-configs/schemas";
import { createModelConfig, listModelConfigs } from "@/lib/model-configs/service";

export const GET = withApi({
  role: "viewer",
  query: paginationQuery,
  handler: async ({ ctx, query }) => {
    const page = await listModelConfigs(ctx, query);
    return listResponse(page.data, page.nextCursor);
  },
});

export const POST = withApi({
  role: "admin",
  body: modelConfigInput,
  handler: async ({ ctx, body }) => ({ status: 201, json: await createModelConfig(ctx, body) }),
});
