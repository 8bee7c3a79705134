import { withApi } from "@/lib/api/handler";
import { listRoute } from "@/lib/api/routes";
import { runListQuery, startRunInput } from "@/lib/runs/schemas";
import { listRuns, startRun } from "@/lib/runs/service";

export const GET = listRoute("viewer", runListQuery, (ctx, query, params) => listRuns(ctx, params.id!, query));

/** Starts a run of the suite's active cases (optionally narrowed) → 202 with the pending run. */
export const POST = withApi({
  role: "editor",
  body: startRunInput.optional(),
  handler: async ({ ctx, params, body }) => ({ status: 202, json: await startRun(ctx, params.id!, body ?? {}, "api") }),
});
