import { withApi, listResponse } from "@/lib/api/handler";
import { alertListQuery } from "@/lib/alerts/schemas";
import { listAlerts } from "@/lib/alerts/service";

/** The workspace's regression alerts, newest first; filter by suite and acknowledged state. */
export const GET = withApi({
  role: "viewer",
  query: alertListQuery,
  handler: async ({ ctx, query }) => {
    const page = await listAlerts(ctx, query);
    return listResponse(page.data, page.next_cursor);
  },
});
