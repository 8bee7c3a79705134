"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { workspaceAction } from "@/lib/actions/safe-action";
import { createWebhook, deleteWebhook, redeliver, sendTestEvent, updateWebhook } from "./service";
import { redeliverInput, webhookFormInput, webhookIdInput } from "./schemas";

/** Settings → Webhooks (admins). The services check the role and the URL again. */
const revalidate = (workspaceId: string) => revalidatePath(`/w/${workspaceId}/settings/webhooks`);

export const createWebhookAction = workspaceAction(webhookFormInput, "admin", async (input, ctx) => {
  const hook = await createWebhook(ctx, input);
  revalidate(ctx.workspaceId);
  return hook;
});

/** An empty secret keeps the stored one. */
export const updateWebhookAction = workspaceAction(
  webhookFormInput.extend({ id: z.uuid("Unknown webhook") }),
  "admin",
  async ({ id, secret, ...rest }, ctx) => {
    const hook = await updateWebhook(ctx, id, secret ? { ...rest, secret } : rest);
    revalidate(ctx.workspaceId);
    return hook;
  },
);

export const setWebhookEnabledAction = workspaceAction(
  webhookIdInput.extend({ enabled: z.boolean() }),
  "admin",
  async ({ id, enabled }, ctx) => {
    const hook = await updateWebhook(ctx, id, { enabled });
    revalidate(ctx.workspaceId);
    return hook;
  },
);

export const deleteWebhookAction = workspaceAction(webhookIdInput, "admin", async ({ id }, ctx) => {
  await deleteWebhook(ctx, id);
  revalidate(ctx.workspaceId);
  return { id };
});

export const testWebhookAction = workspaceAction(webhookIdInput, "admin", async ({ id }, ctx) => {
  const delivery = await sendTestEvent(ctx, id);
  revalidate(ctx.workspaceId);
  return delivery;
});

export const redeliverAction = workspaceAction(redeliverInput, "admin", async ({ id, deliveryId }, ctx) => {
  const delivery = await redeliver(ctx, id, deliveryId);
  revalidate(ctx.workspaceId);
  return delivery;
});
