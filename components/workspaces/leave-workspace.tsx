"use client";
import { leaveWorkspaceAction } from "@/lib/workspaces/settings-actions";
import { ActionButton } from "@/components/ui/action-button";

/** The action redirects home on success, so only an error comes back. */
export function LeaveWorkspace({ workspaceId, workspaceName }: { workspaceId: string; workspaceName: string }) {
  return (
    <ActionButton
      variant="danger"
      confirm={{
        title: `Leave ${workspaceName}?`,
        description: "You lose access to its suites, runs and settings until someone adds you again.",
        confirmLabel: "Leave workspace",
      }}
      action={() => leaveWorkspaceAction(workspaceId, {})}
      refresh="never"
    >
      Leave workspace
    </ActionButton>
  );
}
