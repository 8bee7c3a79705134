import { withApi } from "@/lib/api/handler";
import { getConversation } from "@/lib/traffic/service";

/** GET: one conversation with its transcript, tool calls and errors. */
export const GET = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await getConversation(ctx, params.id ?? "") }),
});
