import { withApi, listResponse } from "@/lib/api/handler";
import { deliveryListQuery } from "@/lib/webhooks/schemas";
import { listDeliveries } from "@/lib/webhooks/service";

/** The webhook's delivery log, newest first: status, attempts, response code, time and body excerpt. */
export const GET = withApi({
  role: "admin",
  query: deliveryListQuery,
  handler: async ({ ctx, params, query }) => {
    const page = await listDeliveries(ctx, params.id!, query);
    return listResponse(page.data, page.next_cursor);
  },
});
