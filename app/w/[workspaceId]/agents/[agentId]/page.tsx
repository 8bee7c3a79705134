import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadAgentPage } from "@/lib/agents/loaders";
import { Badge } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { AgentForm } from "@/components/agents/agent-form";
import { DeleteAgentButton } from "@/components/agents/delete-agent-button";
import { ReadOnlyNotice } from "@/components/model-configs/read-only-notice";
import type { WorkspaceParams } from "@/lib/pages/props";

export const metadata = { title: "Agent" };

export default async function AgentPage({ params }: WorkspaceParams<{ agentId: string }>) {
  const { workspaceId, agentId } = await params;
  const ctx = await pageContext(workspaceId);
  const page = await orNotFound(loadAgentPage(ctx, agentId));
  const agent = page.agent;
  return (
    <div className="max-w-4xl">
      <PageHeader
        title={
          <span className="flex items-center gap-2">
            {agent.name} <Badge tone={agent.kind === "chat" ? "indigo" : "blue"}>{agent.kind}</Badge>
          </span>
        }
        back={{ href: `/w/${workspaceId}/agents`, label: "Agents" }}
        actions={
          page.canEdit ? (
            <DeleteAgentButton
              workspaceId={workspaceId}
              agent={{ id: agent.id, name: agent.name }}
              suiteCount={page.suiteCount}
              redirectTo={`/w/${workspaceId}/agents`}
            />
          ) : null
        }
      />
      {!page.canEdit && (
        <div className="mb-4">
          <ReadOnlyNotice>You have read-only access to this agent.</ReadOnlyNotice>
        </div>
      )}
      <AgentForm
        workspaceId={workspaceId}
        agent={agent}
        modelConfigs={page.modelConfigs}
        readOnly={!page.canEdit}
        canCreateModelConfig={page.canCreateModelConfig}
      />
    </div>
  );
}
