import { withApi } from "@/lib/api/handler";
import { getRun } from "@/lib/runs/service";

export const GET = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await getRun(ctx, params.id!) }),
});
