import { listRoute } from "@/lib/api/routes";
import { deliveryListQuery } from "@/lib/webhooks/schemas";
import { listDeliveries } from "@/lib/webhooks/service";

/** The webhook's delivery log, newest first: status, attempts, response code, time and body excerpt. */
export const GET = listRoute("admin", deliveryListQuery, (ctx, query, params) => listDeliveries(ctx, params.id!, query));
