import { withApi } from "@/lib/api/handler";
import { cancelRun } from "@/lib/runs/service";

export const POST = withApi({
  role: "editor",
  handler: async ({ ctx, params }) => ({ json: await cancelRun(ctx, params.id!) }),
});
