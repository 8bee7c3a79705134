import { withApi } from "@/lib/api/handler";
import { draftCaseInput } from "@/lib/traffic/schemas";
import { draftCaseFromConversation } from "@/lib/traffic/service";

/** POST: a test case drafted from the conversation for the suite, returned for review (nothing is saved). */
export const POST = withApi({
  role: "editor",
  body: draftCaseInput,
  handler: async ({ ctx, params, body }) => ({ json: await draftCaseFromConversation(ctx, params.id ?? "", body) }),
});
