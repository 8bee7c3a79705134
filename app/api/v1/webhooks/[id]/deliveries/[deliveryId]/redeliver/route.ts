import { withApi } from "@/lib/api/handler";
import { redeliver } from "@/lib/webhooks/service";

/** Queues the delivery's payload again as a new delivery → 202. */
export const POST = withApi({
  role: "admin",
  handler: async ({ ctx, params }) => ({ status: 202, json: await redeliver(ctx, params.id!, params.deliveryId!) }),
});
