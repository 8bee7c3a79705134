"use client";
import { pinBaselineAction, unpinBaselineAction } from "@/lib/alerts/actions";
import { ActionButton } from "@/components/ui/action-button";

/** Pins (or unpins) a completed run as its suite's regression baseline. */
export function PinBaselineButton({ workspaceId, runId, pinned }: { workspaceId: string; runId: string; pinned: boolean }) {
  return pinned ? (
    <ActionButton
      variant="secondary"
      align="end"
      pendingLabel="Unpinning…"
      title="Later runs are compared with their previous run over the same cases again"
      action={() => unpinBaselineAction(workspaceId, { id: runId })}
    >
      Unpin baseline
    </ActionButton>
  ) : (
    <ActionButton
      variant="secondary"
      align="end"
      pendingLabel="Pinning…"
      title="Regression alerts compare later runs over the same cases with this run"
      action={() => pinBaselineAction(workspaceId, { id: runId })}
    >
      Pin as baseline
    </ActionButton>
  );
}
