import { z } from "zod";
import { paginationQuery } from "@/lib/api/query";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import { httpUrlInput } from "@/lib/validation/fields";

/**
 * Webhook endpoints: request schemas of the /api/v1/webhooks routes and the settings
 * form. No `server-only`: the OpenAPI builder and the form import them too.
 */

/** What a webhook can subscribe to. `webhook.test` ("Send test event") is sent whatever the subscription. */
export const WEBHOOK_EVENTS = ["alert.raised", "run.completed", "run.failed", "comparison.completed"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const TEST_EVENT = "webhook.test";

export const DELIVERY_STATUSES = ["pending", "delivering", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** At most this many webhooks per workspace (each event is one delivery per webhook). */
export const MAX_WEBHOOKS_PER_WORKSPACE = 20;
export const MIN_SECRET_LENGTH = 16;

const secret = z
  .string()
  .min(MIN_SECRET_LENGTH, `The secret must be at least ${MIN_SECRET_LENGTH} characters`)
  .max(256, "The secret must be at most 256 characters");
const events = z
  .array(z.enum(WEBHOOK_EVENTS, { error: `Events are ${WEBHOOK_EVENTS.join(", ")}` }))
  .min(1, "Choose at least one event")
  .transform((list) => [...new Set(list)]);
const description = z.string().trim().max(TEXT_LIMITS.shortDescription);

/** POST /api/v1/webhooks: the secret signs every delivery (HMAC-SHA256); it is write-only. */
export const webhookInput = z
  .object({
    url: httpUrlInput,
    secret,
    events,
    enabled: z.boolean().default(true),
    description: description.default(""),
  })
  .strict();
export type WebhookInput = z.input<typeof webhookInput>;
export type WebhookData = z.output<typeof webhookInput>;

/** PATCH /api/v1/webhooks/{id}: the fields to change; a new `secret` rotates it. */
export const webhookPatch = z
  .object({
    url: httpUrlInput.optional(),
    secret: secret.optional(),
    events: events.optional(),
    enabled: z.boolean().optional(),
    description: description.optional(),
  })
  .strict();
export type WebhookPatch = z.output<typeof webhookPatch>;

/** The settings form: the secret may stay empty on an edit (keeps the stored one). */
export const webhookFormInput = z.object({
  url: httpUrlInput,
  secret: z.union([z.literal(""), secret]),
  events,
  enabled: z.boolean(),
  description,
});
export type WebhookFormInput = z.input<typeof webhookFormInput>;

export const deliveryListQuery = paginationQuery;

export const webhookIdInput = z.object({ id: z.uuid("Unknown webhook") });
export const redeliverInput = z.object({ id: z.uuid("Unknown webhook"), deliveryId: z.uuid("Unknown delivery") });
