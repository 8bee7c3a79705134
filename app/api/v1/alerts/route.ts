import { listRoute } from "@/lib/api/routes";
import { alertListQuery } from "@/lib/alerts/schemas";
import { listAlerts } from "@/lib/alerts/service";

/** The workspace's regression alerts, newest first; filter by suite and acknowledged state. */
export const GET = listRoute("viewer", alertListQuery, (ctx, query) => listAlerts(ctx, query));
