"use client";
import { deleteAgentAction } from "@/lib/agents/actions";
import { DeleteButton } from "@/components/ui/delete-button";

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
  const inUse = `It has ${suiteCount} suite${suiteCount === 1 ? "" : "s"}; delete ${suiteCount === 1 ? "it" : "them"} first.`;
  return (
    <DeleteButton
      size="sm"
      align="end"
      name={agent.name}
      description={suiteCount > 0 ? inUse : "This cannot be undone. Suites of this agent in the trash are deleted with it."}
      action={() => deleteAgentAction(workspaceId, { id: agent.id })}
      redirectTo={redirectTo}
    />
  );
}
