"use client";
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { cancelRunAction } from "@/lib/runs/actions";
import { runKeys } from "@/lib/runs/hooks";
import { ConfirmButton } from "@/components/ui/confirm-button";

/** Cancels a pending or running run after confirmation; the run page's polling shows the outcome. */
export function CancelRunButton({ workspaceId, runId }: { workspaceId: string; runId: string }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex flex-col items-end gap-1">
      <ConfirmButton
        variant="danger"
        title="Cancel this run?"
        description="Cases that have not started are skipped; cases already running finish or stop. The run ends as cancelled."
        confirmLabel="Yes, cancel the run"
        onConfirm={async () => {
          setError(null);
          const result = await cancelRunAction(workspaceId, { id: runId });
          if (!result.ok) setError(result.error);
          await queryClient.invalidateQueries({ queryKey: runKeys.all(workspaceId, runId) });
        }}
      >
        Cancel run
      </ConfirmButton>
      {error && (
        <p role="status" className="text-xs text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
