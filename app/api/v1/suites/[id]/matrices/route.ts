import { withApi, listResponse } from "@/lib/api/handler";
import { matrixListQuery } from "@/lib/matrices/schemas";
import { listMatrices } from "@/lib/matrices/service";

/** The suite's matrices, newest first. */
export const GET = withApi({
  role: "viewer",
  query: matrixListQuery,
  handler: async ({ ctx, params, query }) => {
    const page = await listMatrices(ctx, params.id!, query);
    return listResponse(page.data, page.next_cursor);
  },
});
