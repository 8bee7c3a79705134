"use client";
import { deleteAgentAction } from "@/lib/agents/actions";
import { ActionButton } from "@/components/ui/action-button";

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
  const suites = `${suiteCount} suite${suiteCount === 1 ? "" : "s"}`;
  return (
    <ActionButton
      variant="danger"
      size="sm"
      align="end"
      confirm={{
        title: `Delete "${agent.name}"?`,
        description:
          suiteCount > 0 ? `It has ${suites}; delete ${suiteCount === 1 ? "it" : "them"} first.` : "This cannot be undone. Suites of this agent in the trash are deleted with it.",
        confirmLabel: "Delete",
      }}
      action={() => deleteAgentAction(workspaceId, { id: agent.id })}
      redirectTo={redirectTo}
    >
      Delete
    </ActionButton>
  );
}
