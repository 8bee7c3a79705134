import { withApi } from "@/lib/api/handler";
import { sendTestEvent } from "@/lib/webhooks/service";

/** Queues a `webhook.test` delivery → 202 with the pending delivery. */
export const POST = withApi({
  role: "admin",
  handler: async ({ ctx, params }) => ({ status: 202, json: await sendTestEvent(ctx, params.id!) }),
});
