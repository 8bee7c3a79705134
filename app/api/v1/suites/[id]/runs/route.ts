import { withApi, listResponse } from "@/lib/api/handler";
import { runListQuery, startRunInput } from "@/lib/runs/schemas";
import { listRuns, startRun } from "@/lib/runs/service";

export const GET = withApi({
  role: "viewer",
  query: runListQuery,
  handler: async ({ ctx, params, query }) => {
    const page = await listRuns(ctx, params.id!, query);
    return listResponse(page.data, page.next_cursor);
  },
});

/** Starts a run of the suite's active cases (optionally narrowed) → 202 with the pending run. */
export const POST = withApi({
  role: "editor",
  body: startRunInput.optional(),
  handler: async ({ ctx, params, body }) => ({ status: 202, json: await startRun(ctx, params.id!, body ?? {}, "api") }),
});
