import { listResponse, withApi } from "@/lib/api/handler";
import { conversationListQuery } from "@/lib/traffic/schemas";
import { listConversations } from "@/lib/traffic/service";

/** GET: the workspace's traffic conversations, newest first, filtered (agent or service, time, errors, tool, turns, text). */
export const GET = withApi({
  role: "viewer",
  query: conversationListQuery,
  handler: async ({ ctx, query }) => {
    const page = await listConversations(ctx, query);
    return listResponse(page.data, page.next_cursor);
  },
});
