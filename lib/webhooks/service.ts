/**
 * Webhook endpoints, from the admin's side: create, list, read, update, delete, the delivery
 * log, "send test event" and "redeliver". Admins only (a webhook sends the workspace's results
 * to a URL of their choosing). The URL is checked against the network guard's rules when it is
 * saved (never link-local or cloud metadata; private networks only when the instance allows
 * them; the worker checks again when it connects). The secret is stored encrypted and never
 * returned. Emitting events is ./events.ts; sending them is ./worker.ts.
 */
import "server-only";
import { db } from "@/lib/db";
import { ConflictError, NotFoundError, ValidationError, zodIssues } from "@/lib/errors";
import { encryptSecret } from "@/lib/crypto";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { isUuid } from "@/lib/ids";
import { pageNewestFirst } from "@/lib/serialize";
import { refusedUrlIssue } from "@/lib/net/service";
import type { Prisma } from "@/lib/generated/prisma/client";
import { deliverySelect, toDeliveryDto, toWebhookDto, webhookSelect, type WebhookDeliveryDto, type WebhookDto } from "./dto";
import { MAX_WEBHOOKS_PER_WORKSPACE, TEST_EVENT, webhookInput, webhookPatch } from "./schemas";
import { deliveryBody } from "./events";
import { notifyDeliveryQueued } from "./wakeup";

/** The network guard's static rules, at save time: a refused URL is a 400 on `url`. */
function assertUrlAllowed(url: string) {
  let refused;
  try {
    refused = refusedUrlIssue(url, "url");
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    refused = { path: "url", message: err.message }; // not a URL at all
  }
  if (refused) throw new ValidationError("Please fix the highlighted fields", [refused]);
}

async function findWebhook(ctx: WorkspaceContext, id: string) {
  if (!isUuid(id)) throw new NotFoundError("Webhook");
  const row = await db.webhook.findFirst({ where: { id, workspaceId: ctx.workspaceId }, select: webhookSelect });
  if (!row) throw new NotFoundError("Webhook");
  return row;
}

export async function listWebhooks(ctx: WorkspaceContext): Promise<WebhookDto[]> {
  requireRole(ctx, "admin");
  const rows = await db.webhook.findMany({
    where: { workspaceId: ctx.workspaceId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: webhookSelect,
  });
  return rows.map(toWebhookDto);
}

export async function getWebhook(ctx: WorkspaceContext, id: string): Promise<WebhookDto> {
  requireRole(ctx, "admin");
  return toWebhookDto(await findWebhook(ctx, id));
}

export async function createWebhook(ctx: WorkspaceContext, raw: unknown): Promise<WebhookDto> {
  requireRole(ctx, "admin");
  const parsed = webhookInput.safeParse(raw);
  if (!parsed.success) throw new ValidationError("Please fix the highlighted fields", zodIssues(parsed.error));
  const data = parsed.data;
  assertUrlAllowed(data.url);
  const count = await db.webhook.count({ where: { workspaceId: ctx.workspaceId } });
  if (count >= MAX_WEBHOOKS_PER_WORKSPACE) throw new ConflictError(`A workspace can have at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks`);
  const row = await db.webhook.create({
    data: {
      workspaceId: ctx.workspaceId,
      url: data.url,
      secretEncrypted: encryptSecret(data.secret),
      events: data.events,
      enabled: data.enabled,
      description: data.description,
    },
    select: webhookSelect,
  });
  return toWebhookDto(row);
}

/** PATCH: only the given fields change; a new secret replaces the stored one. */
export async function updateWebhook(ctx: WorkspaceContext, id: string, raw: unknown): Promise<WebhookDto> {
  requireRole(ctx, "admin");
  await findWebhook(ctx, id);
  const parsed = webhookPatch.safeParse(raw ?? {});
  if (!parsed.success) throw new ValidationError("Please fix the highlighted fields", zodIssues(parsed.error));
  const patch = parsed.data;
  if (patch.url !== undefined) assertUrlAllowed(patch.url);
  const data: Prisma.WebhookUpdateManyMutationInput = {
    ...(patch.url !== undefined ? { url: patch.url } : {}),
    ...(patch.secret !== undefined ? { secretEncrypted: encryptSecret(patch.secret) } : {}),
    ...(patch.events !== undefined ? { events: patch.events } : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
  };
  await db.webhook.updateMany({ where: { id, workspaceId: ctx.workspaceId }, data });
  return toWebhookDto(await findWebhook(ctx, id));
}

/** Deletes the webhook and its delivery log; queued deliveries are dropped with it. */
export async function deleteWebhook(ctx: WorkspaceContext, id: string): Promise<void> {
  requireRole(ctx, "admin");
  await findWebhook(ctx, id);
  await db.webhook.deleteMany({ where: { id, workspaceId: ctx.workspaceId } });
}

/** The webhook's delivery log, newest first. */
export async function listDeliveries(
  ctx: WorkspaceContext,
  webhookId: string,
  q: { cursor?: string; limit: number },
): Promise<{ data: WebhookDeliveryDto[]; next_cursor: string | null }> {
  requireRole(ctx, "admin");
  await findWebhook(ctx, webhookId);
  const { page, next_cursor } = await pageNewestFirst(q, (query) =>
    db.webhookDelivery.findMany({ ...query, where: { webhookId, workspaceId: ctx.workspaceId, ...query.where }, select: deliverySelect }),
  );
  return { data: page.map(toDeliveryDto), next_cursor };
}

async function queueDelivery(ctx: WorkspaceContext, webhookId: string, event: string, payload: Prisma.InputJsonValue) {
  const row = await db.webhookDelivery.create({
    data: { workspaceId: ctx.workspaceId, webhookId, event, payload },
    select: deliverySelect,
  });
  await notifyDeliveryQueued([row.id]);
  return toDeliveryDto(row);
}

/** "Send test event": queues a `webhook.test` delivery to this webhook (whatever its events, enabled or not). */
export async function sendTestEvent(ctx: WorkspaceContext, id: string): Promise<WebhookDeliveryDto> {
  requireRole(ctx, "admin");
  const hook = await findWebhook(ctx, id);
  const body = deliveryBody(TEST_EVENT, "Assay: test event. This webhook is set up correctly.", {
    webhook: { id: hook.id, events: hook.events },
  });
  return queueDelivery(ctx, hook.id, TEST_EVENT, body);
}

/** "Redeliver": queues the delivery's payload again as a new delivery (the old one keeps its log). */
export async function redeliver(ctx: WorkspaceContext, webhookId: string, deliveryId: string): Promise<WebhookDeliveryDto> {
  requireRole(ctx, "admin");
  await findWebhook(ctx, webhookId);
  if (!isUuid(deliveryId)) throw new NotFoundError("Delivery");
  const old = await db.webhookDelivery.findFirst({
    where: { id: deliveryId, webhookId, workspaceId: ctx.workspaceId },
    select: { event: true, payload: true },
  });
  if (!old) throw new NotFoundError("Delivery");
  return queueDelivery(ctx, webhookId, old.event, old.payload as Prisma.InputJsonValue);
}
