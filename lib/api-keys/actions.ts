"use server";
import { revalidatePath } from "next/cache";
import { workspaceAction } from "@/lib/actions/safe-action";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/service";
import { apiKeyInput, rowRef } from "@/lib/workspaces/schemas";

/** Returns the plaintext token once; the page shows it and never again. */
export const createApiKeyAction = workspaceAction(apiKeyInput, "admin", async (input, ctx) => {
  const expiresInDays = input.expiresInDays === "never" ? null : Number(input.expiresInDays);
  const { key, token } = await createApiKey(ctx, { name: input.name, role: input.role, scope: input.scope, expiresInDays });
  revalidatePath(`/w/${ctx.workspaceId}/settings/api-keys`);
  return { key, token };
});

export const revokeApiKeyAction = workspaceAction(rowRef, "admin", async ({ id }, ctx) => {
  await revokeApiKey(ctx, id);
  revalidatePath(`/w/${ctx.workspaceId}/settings/api-keys`);
  return null;
});
