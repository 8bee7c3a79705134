"use client";
import { pinBaselineAction, unpinBaselineAction } from "@/lib/alerts/actions";
import { ActionButton } from "@/components/ui/action-button";

/** The button's words either way; the title says what pinning changes for later runs. */
const PIN = {
  label: "Pin as baseline",
  pendingLabel: "Pinning…",
  title: "Regression alerts compare later runs over the same cases with this run",
};
const UNPIN = {
  label: "Unpin baseline",
  pendingLabel: "Unpinning…",
  title: "Later runs are compared with their previous run over the same cases again",
};

/** Pins (or unpins) a completed run as its suite's regression baseline. */
export function PinBaselineButton({ workspaceId, runId, pinned }: { workspaceId: string; runId: string; pinned: boolean }) {
  const { label, pendingLabel, title } = pinned ? UNPIN : PIN;
  const action = pinned ? unpinBaselineAction : pinBaselineAction;
  return (
    <ActionButton
      variant="secondary"
      align="end"
      pendingLabel={pendingLabel}
      title={title}
      action={() => action(workspaceId, { id: runId })}
    >
      {label}
    </ActionButton>
  );
}
