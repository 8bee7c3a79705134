"use client";
import { useState, useTransition } from "react";
import { joinInvitationAction } from "@/lib/workspaces/settings-actions";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";

export function JoinInviteButton({ token, workspaceName }: { token: string; workspaceName: string }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <div className="space-y-3">
      <FormError message={error} />
      <Button
        className="w-full"
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            setError(null);
            const result = await joinInvitationAction({ token });
            if (result && !result.ok) setError(result.error);
          })
        }
      >
        {pending ? "Joining…" : `Join ${workspaceName}`}
      </Button>
    </div>
  );
}
