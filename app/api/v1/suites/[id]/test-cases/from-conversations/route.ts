import { withApi } from "@/lib/api/handler";
import { fromConversationsInput } from "@/lib/traffic/schemas";
import { createCasesFromConversations } from "@/lib/traffic/service";

/** POST: one draft case per conversation in the suite, with a report of what was drafted and what failed. */
export const POST = withApi({
  role: "editor",
  body: fromConversationsInput,
  handler: async ({ ctx, params, body }) => ({
    status: 201,
    json: await createCasesFromConversations(ctx, params.id ?? "", body.conversation_ids),
  }),
});
