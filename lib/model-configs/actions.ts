"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { workspaceAction } from "@/lib/actions/safe-action";
import { modelConfigInput } from "./schemas";
import { createModelConfig, deleteModelConfig, testConnection, updateModelConfig } from "./service";

const configsPath = (workspaceId: string) => `/w/${workspaceId}/model-configs`;
const idInput = z.object({ id: z.uuid("Unknown model configuration") });

export const createModelConfigAction = workspaceAction(modelConfigInput, "admin", async (input, ctx) => {
  const config = await createModelConfig(ctx, input);
  revalidatePath(configsPath(ctx.workspaceId), "layout");
  return config;
});

/** The form sends every field; `api_key` undefined keeps the stored key, null removes it. */
export const updateModelConfigAction = workspaceAction(modelConfigInput.extend(idInput.shape), "admin", async ({ id, ...input }, ctx) => {
  const config = await updateModelConfig(ctx, id, input);
  revalidatePath(configsPath(ctx.workspaceId), "layout");
  return config;
});

/** `force` deletes a configuration that agents or suites still use (the UI shows the usage first). */
export const deleteModelConfigAction = workspaceAction(
  idInput.extend({ force: z.boolean().default(false) }),
  "admin",
  async ({ id, force }, ctx) => {
    await deleteModelConfig(ctx, id, { force });
    revalidatePath(configsPath(ctx.workspaceId), "layout");
    revalidatePath(`/w/${ctx.workspaceId}/agents`, "layout");
    return { id };
  },
);

export const testModelConfigAction = workspaceAction(idInput, "admin", async ({ id }, ctx) => testConnection(ctx, id));
