import { EventEmitter } from "node:events";
import { withoutWorkspaceScope } from "@/lib/tenant-scope";
import { publishWakeup, WAKEUP_CHANNELS } from "@/lib/runs/wakeup";

/**
 * Wake-up for the delivery worker when this process queues a delivery; workers in other processes
 * hear it through PostgreSQL (lib/runs/wakeup.ts).
 */
const state = globalThis as unknown as { assayWebhookEvents?: EventEmitter };
export const webhookEvents = (state.assayWebhookEvents ??= new EventEmitter());
webhookEvents.setMaxListeners(50);

export function notifyDeliveryQueued() {
  // The worker serves every workspace: it must not inherit a request's workspace scope.
  withoutWorkspaceScope(() => webhookEvents.emit("queued"));
  publishWakeup(WAKEUP_CHANNELS.delivery);
}
