import { z } from "zod";
import { withApi } from "@/lib/api/handler";
import { deleteWebhook, getWebhook, updateWebhook } from "@/lib/webhooks/service";

export const GET = withApi({
  role: "admin",
  handler: async ({ ctx, params }) => ({ json: await getWebhook(ctx, params.id!) }),
});

/** Changes the given fields; a new `secret` rotates the signing secret. */
export const PATCH = withApi({
  role: "admin",
  body: z.unknown(),
  handler: async ({ ctx, params, body }) => ({ json: await updateWebhook(ctx, params.id!, body) }),
});

/** Deletes the webhook with its delivery log. */
export const DELETE = withApi({
  role: "admin",
  handler: async ({ ctx, params }) => {
    await deleteWebhook(ctx, params.id!);
    return { status: 204, json: null };
  },
});
