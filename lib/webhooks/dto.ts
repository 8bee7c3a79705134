import type { Prisma } from "@/lib/generated/prisma/client";
import type { z } from "zod";
import type { DeliveryStatus } from "./schemas";
import type { deliveryAttempt, deliveryResource, webhookResource } from "./openapi";

/**
 * Webhooks and their deliveries as the API and the settings page show them. The signing secret
 * is write-only: `webhookSelect` never reads `secretEncrypted`, so no DTO can carry it.
 */

export type WebhookDto = z.output<typeof webhookResource>;

export const webhookSelect = {
  id: true,
  url: true,
  events: true,
  enabled: true,
  description: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.WebhookSelect;

export type WebhookRow = Prisma.WebhookGetPayload<{ select: typeof webhookSelect }>;

export function toWebhookDto(row: WebhookRow): WebhookDto {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    description: row.description,
    has_secret: true,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** One attempt as the delivery log records it. */
export type DeliveryAttempt = z.output<typeof deliveryAttempt>;
export type WebhookDeliveryDto = z.output<typeof deliveryResource>;

export const deliverySelect = {
  id: true,
  webhookId: true,
  event: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  lastStatusCode: true,
  lastDurationMs: true,
  lastResponse: true,
  lastError: true,
  attemptLog: true,
  payload: true,
  createdAt: true,
  deliveredAt: true,
} as const satisfies Prisma.WebhookDeliverySelect;

export type DeliveryRow = Prisma.WebhookDeliveryGetPayload<{ select: typeof deliverySelect }>;

export function toDeliveryDto(row: DeliveryRow): WebhookDeliveryDto {
  const status = row.status as DeliveryStatus;
  return {
    id: row.id,
    webhook_id: row.webhookId,
    event: row.event,
    status,
    attempts: row.attempts,
    next_attempt_at: status === "pending" ? row.nextAttemptAt.toISOString() : null,
    last_status_code: row.lastStatusCode,
    last_duration_ms: row.lastDurationMs,
    last_response: row.lastResponse,
    last_error: row.lastError,
    attempt_log: Array.isArray(row.attemptLog) ? (row.attemptLog as DeliveryAttempt[]) : [],
    payload: row.payload,
    created_at: row.createdAt.toISOString(),
    delivered_at: row.deliveredAt?.toISOString() ?? null,
  };
}
