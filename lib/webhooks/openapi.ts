import { z } from "zod";
import { jsonSchema, outputComponents, patchBody, type OpenApiPart } from "@/lib/api/openapi-kit";
import { body, conflict, errors, idParam, list, listParameters, noContent, ok, ref, tooLarge } from "@/lib/api/openapi-paths";
import { DELIVERY_STATUSES, deliveryListQuery, webhookInput, webhookPatch } from "./schemas";

/**
 * The REST contract of webhooks: the endpoint and delivery resources and the paths under /api/v1/webhooks.
 */

const iso = z.iso.datetime();

export const webhookResource = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    description: z.string(),
    has_secret: z.literal(true).describe("The signing secret is write-only: it is never returned"),
    created_at: iso,
    updated_at: iso,
  })
  .describe("A webhook endpoint of the workspace");

export const deliveryAttempt = z.object({
  at: iso,
  status_code: z.int().nullable(),
  duration_ms: z.int(),
  error: z.string().nullable(),
  response_excerpt: z.string().nullable(),
});

export const deliveryResource = z
  .object({
    id: z.uuid().describe("Sent as X-Assay-Delivery"),
    webhook_id: z.uuid(),
    event: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.int(),
    next_attempt_at: iso.nullable().describe("When the next attempt is due (pending deliveries only)"),
    last_status_code: z.int().nullable(),
    last_duration_ms: z.int().nullable(),
    last_response: z.string().nullable().describe("The first 1 KB of the last response body"),
    last_error: z.string().nullable(),
    attempt_log: z.array(deliveryAttempt),
    payload: z.unknown().describe("The JSON body sent: {event, created_at, text, <object>}"),
    created_at: iso,
    delivered_at: iso.nullable(),
  })
  .describe("One event sent (or to be sent) to one webhook, with every attempt");

function paths() {
  const webhooks = ["Webhooks"];
  const webhookId = idParam;
  return {
    "/api/v1/webhooks": {
      get: {
        operationId: "listWebhooks",
        tags: webhooks,
        summary: "List the workspace's webhooks",
        description: "Role: admin. Never returns secrets. One page (next_cursor is always null).",
        responses: { "200": list("Webhook"), ...errors },
      },
      post: {
        operationId: "createWebhook",
        tags: webhooks,
        summary: "Add a webhook",
        description:
          "Role: admin. The URL must be http(s) and pass the network guard (never link-local or cloud metadata; private networks only when the instance allows them). " +
          "The secret (16–256 characters) signs every delivery and is write-only.",
        requestBody: body("WebhookInput"),
        responses: { "201": ok("The created Webhook", ref("Webhook")), ...errors, ...conflict, ...tooLarge() },
      },
    },
    "/api/v1/webhooks/{id}": {
      parameters: [webhookId],
      get: {
        operationId: "getWebhook",
        tags: webhooks,
        summary: "Get a webhook",
        description: "Role: admin.",
        responses: { "200": ok("Webhook", ref("Webhook")), ...errors },
      },
      patch: {
        operationId: "updateWebhook",
        tags: webhooks,
        summary: "Update a webhook",
        description: "Role: admin. Send only the fields to change; a new secret replaces the stored one.",
        requestBody: body("WebhookPatch"),
        responses: { "200": ok("The updated Webhook", ref("Webhook")), ...errors, ...tooLarge() },
      },
      delete: {
        operationId: "deleteWebhook",
        tags: webhooks,
        summary: "Delete a webhook",
        description: "Role: admin. Its delivery log and queued deliveries are deleted with it.",
        responses: { ...noContent, ...errors },
      },
    },
    "/api/v1/webhooks/{id}/deliveries": {
      parameters: [webhookId],
      get: {
        operationId: "listWebhookDeliveries",
        tags: webhooks,
        summary: "A webhook's delivery log (newest first)",
        description: "Role: admin. Status, attempts, last response code, time and body excerpt, and every attempt.",
        parameters: listParameters(deliveryListQuery),
        responses: { "200": list("WebhookDelivery"), ...errors },
      },
    },
    "/api/v1/webhooks/{id}/test": {
      parameters: [webhookId],
      post: {
        operationId: "testWebhook",
        tags: webhooks,
        summary: "Send a test event",
        description: "Role: admin. Queues a `webhook.test` delivery (whatever the webhook's events); 202 with the pending delivery.",
        responses: { "202": ok("The queued WebhookDelivery", ref("WebhookDelivery")), ...errors },
      },
    },
    "/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
      parameters: [webhookId, { name: "deliveryId", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
      post: {
        operationId: "redeliverWebhookDelivery",
        tags: webhooks,
        summary: "Redeliver a delivery",
        description: "Role: admin. Queues the delivery's payload again as a new delivery (the old one keeps its log); 202 with it.",
        responses: { "202": ok("The queued WebhookDelivery", ref("WebhookDelivery")), ...errors },
      },
    },
  };
}

export function webhooksOpenApi(): OpenApiPart {
  return {
    tags: [
      {
        name: "Webhooks",
        description:
          'Endpoints that receive alert.raised, run.completed, run.failed and comparison.completed as signed JSON POSTs (X-Assay-Signature: v1=HMAC-SHA256 of "<timestamp>.<body>"), ' +
          "retried with exponential backoff (1 min × 3ⁿ up to 6 h, 8 attempts), with a delivery log. Admin only.",
      },
    ],
    paths: paths(),
    schemas: outputComponents({ Webhook: webhookResource, WebhookDelivery: deliveryResource }),
    requests: { WebhookInput: jsonSchema(webhookInput), WebhookPatch: patchBody(webhookPatch) },
  };
}
