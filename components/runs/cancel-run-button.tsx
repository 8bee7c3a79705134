"use client";
import { useQueryClient } from "@tanstack/react-query";
import { cancelRunAction } from "@/lib/runs/actions";
import { runKeys } from "@/lib/runs/hooks";
import { ActionButton } from "@/components/ui/action-button";

/** Cancels a pending or running run after confirmation; the run page's polling shows the outcome. */
export function CancelRunButton({ workspaceId, runId }: { workspaceId: string; runId: string }) {
  const queryClient = useQueryClient();
  return (
    <ActionButton
      variant="danger"
      align="end"
      confirm={{
        title: "Cancel this run?",
        description: "Cases that have not started are skipped; cases already running finish or stop. The run ends as cancelled.",
        confirmLabel: "Yes, cancel the run",
      }}
      action={() => cancelRunAction(workspaceId, { id: runId })}
      refresh="never"
      onSettled={() => queryClient.invalidateQueries({ queryKey: runKeys.all(workspaceId, runId) })}
    >
      Cancel run
    </ActionButton>
  );
}
