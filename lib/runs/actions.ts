"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { workspaceAction } from "@/lib/actions/safe-action";
import { cancelRun, startRun } from "./service";

/**
 * Starts a manual run of a suite. `options` is validated by the service with `startRunInput`,
 * so issue paths are the option names (`concurrency`, `tags`, `variables.Temperature`).
 */
export const startRunAction = workspaceAction(
  z.object({ suite_id: z.uuid("Unknown suite"), options: z.unknown().optional() }),
  "editor",
  async ({ suite_id, options }, ctx) => {
    const run = await startRun(ctx, suite_id, options ?? {}, "manual");
    revalidatePath(`/w/${ctx.workspaceId}/suites/${suite_id}`, "layout");
    return run;
  },
);

/** Cancels a pending or running run: no new cases start; running ones end or abort. */
export const cancelRunAction = workspaceAction(z.object({ id: z.uuid("Unknown run") }), "editor", async ({ id }, ctx) => {
  const run = await cancelRun(ctx, id);
  revalidatePath(`/w/${ctx.workspaceId}/suites/${run.suite_id}`, "layout");
  return run;
});
