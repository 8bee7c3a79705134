"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { workspaceAction } from "@/lib/actions/safe-action";
import { createPreset, deletePreset, updatePreset } from "./service";

/** Suite settings page: add, edit and delete the suite's variable presets (inputs validated by the service). */
export const createPresetAction = workspaceAction(
  z.object({ suite_id: z.uuid("Unknown suite"), preset: z.unknown() }),
  "editor",
  async ({ suite_id, preset }, ctx) => {
    const created = await createPreset(ctx, suite_id, preset);
    revalidatePath(`/w/${ctx.workspaceId}/suites/${suite_id}`, "layout");
    return created;
  },
);

export const updatePresetAction = workspaceAction(
  z.object({ id: z.uuid("Unknown preset"), patch: z.unknown() }),
  "editor",
  async ({ id, patch }, ctx) => {
    const updated = await updatePreset(ctx, id, patch);
    revalidatePath(`/w/${ctx.workspaceId}/suites/${updated.suite_id}`, "layout");
    return updated;
  },
);

export const deletePresetAction = workspaceAction(z.object({ id: z.uuid("Unknown preset") }), "editor", async ({ id }, ctx) => {
  const { suite_id } = await deletePreset(ctx, id);
  revalidatePath(`/w/${ctx.workspaceId}/suites/${suite_id}`, "layout");
  return { id };
});
