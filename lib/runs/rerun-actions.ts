"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { workspaceAction } from "@/lib/actions/safe-action";
import { MAX_RERUN_SELECTED, RERUN_SCOPES } from "./schemas";
import { rerunRun } from "./rerun";

/**
 * The run page's re-run buttons: a new run over the finished run's failed, errored, flaky or all
 * cases, or those selected in its case table, under its conditions (./rerun.ts). A scope no case
 * matches comes back as the service's message ("Run #3 has no flaky cases that still exist").
 */
export const rerunRunAction = workspaceAction(
  z.object({
    id: z.uuid("Unknown run"),
    only: z.enum(RERUN_SCOPES),
    case_result_ids: z.array(z.uuid()).max(MAX_RERUN_SELECTED).optional(),
  }),
  "editor",
  async ({ id, only, case_result_ids }, ctx) => {
    const run = await rerunRun(ctx, id, { only, ...(case_result_ids ? { case_result_ids } : {}) });
    revalidatePath(`/w/${ctx.workspaceId}/suites/${run.suite_id}`, "layout");
    return run;
  },
);
