import { withApi } from "@/lib/api/handler";
import { testConnection } from "@/lib/model-configs/service";

/**
 * Calls the endpoint with a one-token chat completion. Answers 200 with
 * `{ok, latency_ms, model, message}` whether or not the endpoint worked: `ok` is the verdict.
 */
export const POST = withApi({
  role: "admin",
  handler: async ({ ctx, params }) => ({ json: await testConnection(ctx, params.id!) }),
});
