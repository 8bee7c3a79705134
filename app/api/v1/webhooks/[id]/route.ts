import { z } from "zod";
import { deleteByIdRoute, getByIdRoute, updateByIdRoute } from "@/lib/api/routes";
import { deleteWebhook, getWebhook, updateWebhook } from "@/lib/webhooks/service";

export const GET = getByIdRoute("admin", getWebhook);

/** Changes the given fields; a new `secret` rotates the signing secret. */
export const PATCH = updateByIdRoute("admin", z.unknown(), updateWebhook);

/** Deletes the webhook with its delivery log. */
export const DELETE = deleteByIdRoute("admin", deleteWebhook);
