"use client";
import { joinInvitationAction } from "@/lib/workspaces/settings-actions";
import { ActionButton } from "@/components/ui/action-button";

/** The action redirects into the workspace on success, so only an error comes back. */
export function JoinInviteButton({ token, workspaceName }: { token: string; workspaceName: string }) {
  return (
    <ActionButton align="stretch" pendingLabel="Joining…" action={() => joinInvitationAction({ token })} refresh="never">
      {`Join ${workspaceName}`}
    </ActionButton>
  );
}
