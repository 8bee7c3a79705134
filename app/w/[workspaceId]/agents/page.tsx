import Link from "next/link";
import { pageContext } from "@/lib/auth/context";
import { loadAgentsPage } from "@/lib/agents/loaders";
import { buttonClass } from "@/components/ui/button";
import { ListPage } from "@/components/ui/list-page";
import { AgentTable } from "@/components/agents/agent-table";
import type { WorkspacePageProps } from "@/lib/pages/props";

export const metadata = { title: "Agents" };

const DESCRIPTION = "What you test: a chat model with a system prompt and mocked tools, or your own agent behind a URL.";

export default async function AgentsPage({ params, searchParams }: WorkspacePageProps<Record<never, string>, { cursor?: string }>) {
  const { workspaceId } = await params;
  const { cursor } = await searchParams;
  const ctx = await pageContext(workspaceId);
  const page = await loadAgentsPage(ctx, cursor);
  const base = `/w/${workspaceId}/agents`;
  const newButton = page.canEdit ? (
    <Link href={`${base}/new`} className={buttonClass()}>
      New agent
    </Link>
  ) : null;
  const hint = page.canEdit ? "Create an agent, then add suites of test cases for it." : "Editors of this workspace can create agents.";
  const empty = page.agents.length === 0 && !cursor ? { title: "No agents yet", description: hint, action: newButton } : null;
  return (
    <ListPage
      header={{ title: "Agents", description: DESCRIPTION, actions: newButton }}
      empty={empty}
      pagination={{ base, cursor, nextCursor: page.nextCursor }}
    >
      <AgentTable workspaceId={workspaceId} agents={page.agents} canEdit={page.canEdit} />
    </ListPage>
  );
}
