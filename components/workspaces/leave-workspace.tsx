"use client";
import { useState } from "react";
import { leaveWorkspaceAction } from "@/lib/workspaces/settings-actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { FormError } from "@/components/ui/field";

export function LeaveWorkspace({ workspaceId, workspaceName }: { workspaceId: string; workspaceName: string }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="space-y-3">
      <FormError message={error} />
      <ConfirmButton
        variant="danger"
        title={`Leave ${workspaceName}?`}
        description="You lose access to its suites, runs and settings until someone adds you again."
        confirmLabel="Leave workspace"
        onConfirm={async () => {
          setError(null);
          const result = await leaveWorkspaceAction(workspaceId, {});
          if (result && !result.ok) setError(result.error);
        }}
      >
        Leave workspace
      </ConfirmButton>
    </div>
  );
}
