import { withApi } from "@/lib/api/handler";
import { getCaseResult } from "@/lib/runs/service";

/** One case result with every LLM call's exact request and raw response. */
export const GET = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await getCaseResult(ctx, params.id!) }),
});
