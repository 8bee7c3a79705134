import { withSession } from "@/lib/api/handler";
import { runChangeDetails } from "@/lib/runs/change-details";

/** The changes card's "What changed" view: the flips with what changed, field by field (read when opened). */
export const GET = withSession({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await runChangeDetails(ctx, params.runId!) }),
});
