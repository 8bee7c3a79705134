import { withApi } from "@/lib/api/handler";
import { restoreSuite } from "@/lib/suites/service";

/** Brings a suite back from the trash; 409 when a live suite of the agent has its name. */
export const POST = withApi({
  role: "editor",
  handler: async ({ ctx, params }) => ({ json: await restoreSuite(ctx, params.id!) }),
});
