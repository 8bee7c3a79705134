"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { deleteAgentAction } from "@/lib/agents/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";

/** Deletes after confirmation; the server refuses while the agent has live suites. */
export function DeleteAgentButton({
  workspaceId,
  agent,
  suiteCount,
  redirectTo,
}: {
  workspaceId: string;
  agent: { id: string; name: string };
  suiteCount: number;
  redirectTo?: string;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <ConfirmButton
        variant="danger"
        size="sm"
        title={`Delete "${agent.name}"?`}
        description={
          suiteCount > 0
            ? `It has ${suiteCount} suite${suiteCount === 1 ? "" : "s"}; delete ${suiteCount === 1 ? "it" : "them"} first.`
            : "This cannot be undone. Suites of this agent in the trash are deleted with it."
        }
        confirmLabel="Delete"
        onConfirm={async () => {
          setError(null);
          const res = await deleteAgentAction(workspaceId, { id: agent.id });
          if (!res.ok) {
            setError(res.error);
            return;
          }
          if (redirectTo) router.push(redirectTo);
          router.refresh();
        }}
      >
        Delete
      </ConfirmButton>
      {error && <span className="max-w-72 text-right text-xs text-red-700">{error}</span>}
    </span>
  );
}
