"use client";
import { useQueryClient } from "@tanstack/react-query";
import { cancelComparisonAction } from "@/lib/comparisons/actions";
import { ActionButton } from "@/components/ui/action-button";
import { comparisonKeys } from "./hooks";

/** Cancels a pending or running comparison after confirmation; the page's polling shows the outcome. */
export function CancelComparisonButton({ workspaceId, comparisonId }: { workspaceId: string; comparisonId: string }) {
  const queryClient = useQueryClient();
  return (
    <ActionButton
      variant="danger"
      align="end"
      confirm={{
        title: "Cancel this comparison?",
        description:
          "Pairs that have not started are skipped; pairs already running finish or stop. The statistics cover the completed pairs.",
        confirmLabel: "Yes, cancel the comparison",
      }}
      action={() => cancelComparisonAction(workspaceId, { id: comparisonId })}
      refresh="never"
      onSettled={() => queryClient.invalidateQueries({ queryKey: comparisonKeys.all(workspaceId, comparisonId) })}
    >
      Cancel comparison
    </ActionButton>
  );
}
