import { withApi } from "@/lib/api/handler";
import { rerunRun } from "@/lib/runs/rerun";
import { rerunInput } from "@/lib/runs/schemas";

/** A new run over the run's failed, errored, flaky or all cases, under the original's conditions. */
export const POST = withApi({
  role: "editor",
  body: rerunInput,
  handler: async ({ ctx, params, body }) => ({ status: 202, json: await rerunRun(ctx, params.id!, body) }),
});
