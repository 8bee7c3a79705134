"use server";
import { revalidatePath } from "next/cache";
import { workspaceAction } from "@/lib/actions/safe-action";
import { acknowledgeAlert, pinBaseline, unpinBaseline } from "./service";
import { alertIdInput, runIdInput } from "./schemas";

/** Any member acknowledges an alert (who and when are recorded); the bell, the alerts page and the suite banner update. */
export const acknowledgeAlertAction = workspaceAction(alertIdInput, "viewer", async ({ id }, ctx) => {
  const alert = await acknowledgeAlert(ctx, id);
  // The bell lives in the workspace layout.
  revalidatePath(`/w/${ctx.workspaceId}`, "layout");
  return alert;
});

/** Pins a completed run as its suite's regression baseline. */
export const pinBaselineAction = workspaceAction(runIdInput, "editor", async ({ id }, ctx) => {
  const pin = await pinBaseline(ctx, id);
  revalidatePath(`/w/${ctx.workspaceId}/runs/${id}`);
  return pin;
});

export const unpinBaselineAction = workspaceAction(runIdInput, "editor", async ({ id }, ctx) => {
  const pin = await unpinBaseline(ctx, id);
  revalidatePath(`/w/${ctx.workspaceId}/runs/${id}`);
  return pin;
});
