import { withoutWorkspaceScope } from "@/lib/tenant-scope";
import { logger } from "@/lib/logger";
import { sendJob } from "@/lib/jobs/boss";

/**
 * A queued delivery becomes a job of the job library (lib/jobs) at once: whichever process works
 * the queue sends it. A job that cannot be sent costs only latency: the WebhookDelivery row is
 * the durable part, and the minute's sweep finds it.
 */
export const WEBHOOK_DELIVERY_JOB = "webhook-delivery";
export type WebhookDeliveryJob = { deliveryId: string };

/** The job for a delivery's attempt at `at` (now by default); null when one already waits for it. */
export function sendDeliveryJob(deliveryId: string, at?: Date): Promise<string | null> {
  return sendJob(WEBHOOK_DELIVERY_JOB, { deliveryId } satisfies WebhookDeliveryJob, { singletonKey: deliveryId, startAfter: at });
}

export async function notifyDeliveryQueued(deliveryIds: string[]): Promise<void> {
  // The job serves every workspace: it must not inherit a request's workspace scope.
  await withoutWorkspaceScope(async () => {
    for (const deliveryId of deliveryIds) {
      await sendDeliveryJob(deliveryId).catch((err: unknown) =>
        logger.warn({ err, deliveryId }, "could not send the delivery's job; the sweep will find it"),
      );
    }
  });
}
