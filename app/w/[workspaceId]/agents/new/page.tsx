import { pageContext } from "@/lib/auth/context";
import { loadAgentFormPage } from "@/lib/agents/loaders";
import { PageHeader } from "@/components/ui/page-header";
import { AgentForm } from "@/components/agents/agent-form";
import { ReadOnlyNotice } from "@/components/model-configs/read-only-notice";
import type { WorkspaceParams } from "@/lib/pages/props";

export const metadata = { title: "New agent" };

export default async function NewAgentPage({ params }: WorkspaceParams) {
  const { workspaceId } = await params;
  const ctx = await pageContext(workspaceId);
  const page = await loadAgentFormPage(ctx);
  return (
    <div className="max-w-4xl">
      <PageHeader title="New agent" back={{ href: `/w/${workspaceId}/agents`, label: "Agents" }} />
      {page.canEdit ? (
        <AgentForm workspaceId={workspaceId} modelConfigs={page.modelConfigs} canCreateModelConfig={page.canCreateModelConfig} />
      ) : (
        <ReadOnlyNotice>Viewers can read agents but not create them. Ask a workspace admin for the editor role.</ReadOnlyNotice>
      )}
    </div>
  );
}
