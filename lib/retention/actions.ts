"use server";
import { z } from "zod";
import { revalidatePath } from "next/cache";
import { workspaceAction } from "@/lib/actions/safe-action";
import { retentionSettingsForm } from "./schemas";
import { requireInstanceAdmin, updateRetentionSettings } from "./service";
import { runCleanup } from "./cleanup";
import { CleanupConfirmationRequired } from "./cleanup-guard";
import type { CleanupResult } from "./dto";

/** The Instance page holds retention; actions run as a member of the instance's first workspace. */
const page = (_workspaceId: string) => "/instance";

/** Saves the retention form: empty fields clear the database value (env/default apply again). */
export const updateRetentionSettingsAction = workspaceAction(retentionSettingsForm, "admin", async (input, ctx) => {
  const settings = await updateRetentionSettings(ctx, input);
  revalidatePath(page(ctx.workspaceId));
  return settings;
});

/** "Preview cleanup": what a cleanup would delete now; nothing is deleted. */
export const previewCleanupAction = workspaceAction(z.object({}), "admin", async (_input, ctx) => {
  await requireInstanceAdmin(ctx);
  const result = await runCleanup({ dryRun: true, trigger: "manual" });
  revalidatePath(page(ctx.workspaceId));
  return result;
});

/** What "Run cleanup now" did, or the counts the page must ask about before it deletes. */
export type RunCleanupOutcome = { done: CleanupResult } | { confirm: { runsToDelete: number; finishedRuns: number } };

/**
 * "Run cleanup now", after the page's confirmation; one that would delete more than half of all
 * finished runs comes back for a second, explicit one (`confirm`).
 */
export const runCleanupAction = workspaceAction(
  z.object({ confirm: z.boolean().default(false) }),
  "admin",
  async ({ confirm }, ctx): Promise<RunCleanupOutcome> => {
    await requireInstanceAdmin(ctx);
    try {
      const result = await runCleanup({ dryRun: false, confirm, trigger: "manual" });
      revalidatePath(page(ctx.workspaceId));
      return { done: result };
    } catch (err) {
      if (!(err instanceof CleanupConfirmationRequired)) throw err;
      return { confirm: { runsToDelete: err.runsToDelete, finishedRuns: err.finishedRuns } };
    }
  },
);
