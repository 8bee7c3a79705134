"use client";
import { useQueryClient } from "@tanstack/react-query";
import { cancelMatrixAction } from "@/lib/matrices/actions";
import { ActionButton } from "@/components/ui/action-button";
import { matrixKeys } from "./hooks";

/** Cancels every unfinished run of the matrix after confirmation; the page's polling shows the outcome. */
export function CancelMatrixButton({ workspaceId, matrixId }: { workspaceId: string; matrixId: string }) {
  const queryClient = useQueryClient();
  return (
    <ActionButton
      variant="danger"
      align="end"
      confirm={{
        title: "Cancel this matrix run?",
        description: "Cases that have not started are skipped in every combination; cases already running finish or stop.",
        confirmLabel: "Yes, cancel the matrix",
      }}
      action={() => cancelMatrixAction(workspaceId, { id: matrixId })}
      refresh="never"
      onSettled={() => queryClient.invalidateQueries({ queryKey: matrixKeys.all(workspaceId, matrixId) })}
    >
      Cancel matrix
    </ActionButton>
  );
}
