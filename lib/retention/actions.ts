"use server";
import { z } from "zod";
import { revalidatePath } from "next/cache";
import { workspaceAction } from "@/lib/actions/safe-action";
import { retentionSettingsForm } from "./schemas";
import { requireInstanceAdmin, updateRetentionSettings } from "./service";
import { runCleanup } from "./cleanup";

const page = (workspaceId: string) => `/w/${workspaceId}/settings/retention`;

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

/** "Run cleanup now", after the page's confirmation. */
export const runCleanupAction = workspaceAction(z.object({}), "admin", async (_input, ctx) => {
  await requireInstanceAdmin(ctx);
  const result = await runCleanup({ dryRun: false, trigger: "manual" });
  revalidatePath(page(ctx.workspaceId));
  return result;
});
