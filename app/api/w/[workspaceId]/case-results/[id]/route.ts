import { withSession } from "@/lib/api/handler";
import { getCaseResult } from "@/lib/runs/service";

/** One case result with transcript, verdicts and every LLM call (exact request and raw response). */
export const GET = withSession({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await getCaseResult(ctx, params.id!) }),
});
