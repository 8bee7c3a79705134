"use client";
import { redeliverAction } from "@/lib/webhooks/actions";
import { RowActionButton } from "@/components/ui/action-button";

/** Queues the delivery's payload again as a new delivery. */
export function RedeliverButton({ workspaceId, webhookId, deliveryId }: { workspaceId: string; webhookId: string; deliveryId: string }) {
  return (
    <RowActionButton
      aria-label={`Redeliver ${deliveryId.slice(0, 8)}`}
      confirm={{
        title: "Send this delivery again?",
        description: "The same payload is queued as a new delivery.",
        confirmLabel: "Redeliver",
      }}
      action={() => redeliverAction(workspaceId, { id: webhookId, deliveryId })}
    >
      Redeliver
    </RowActionButton>
  );
}
