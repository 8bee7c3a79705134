import { withApi } from "@/lib/api/handler";
import { getMatrix } from "@/lib/matrices/service";

export const GET = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await getMatrix(ctx, params.id!) }),
});
