import { withApi } from "@/lib/api/handler";
import { cancelMatrix } from "@/lib/matrices/service";

export const POST = withApi({
  role: "editor",
  handler: async ({ ctx, params }) => ({ json: await cancelMatrix(ctx, params.id!) }),
});
