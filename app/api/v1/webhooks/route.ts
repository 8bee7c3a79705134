import { z } from "zod";
import { withApi, listResponse } from "@/lib/api/handler";
import { createWebhook, listWebhooks } from "@/lib/webhooks/service";

/** The workspace's webhooks (admin); never their secrets. */
export const GET = withApi({
  role: "admin",
  handler: async ({ ctx }) => listResponse(await listWebhooks(ctx), null),
});

/** Adds a webhook: `{url, secret, events, enabled?, description?}` → 201. The service validates (webhookInput) and checks the URL. */
export const POST = withApi({
  role: "admin",
  body: z.unknown(),
  handler: async ({ ctx, body }) => ({ status: 201, json: await createWebhook(ctx, body) }),
});
