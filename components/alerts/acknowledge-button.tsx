"use client";
import { acknowledgeAlertAction } from "@/lib/alerts/actions";
import { ActionButton } from "@/components/ui/action-button";

/** Acknowledges one alert (any member); the page and the bell refresh afterwards. */
export function AcknowledgeButton({ workspaceId, alertId, label }: { workspaceId: string; alertId: string; label: string }) {
  return (
    <ActionButton
      variant="secondary"
      size="sm"
      align="end"
      aria-label={`Acknowledge ${label}`}
      pendingLabel="Acknowledging…"
      action={() => acknowledgeAlertAction(workspaceId, { id: alertId })}
    >
      Acknowledge
    </ActionButton>
  );
}
