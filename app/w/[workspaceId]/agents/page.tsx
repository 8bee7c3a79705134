import Link from "next/link";
import { pageContext } from "@/lib/auth/context";
import { ValidationError } from "@/lib/errors";
import { loadAgentsPage } from "@/lib/agents/loaders";
import { buttonClass } from "@/components/ui/button";
import { EmptyState, PageHeader } from "@/components/ui/card";
import { AgentTable } from "@/components/agents/agent-table";

export const metadata = { title: "Agents" };

export default async function AgentsPage({ params, searchParams }: { params: Promise<{ workspaceId: string }>; searchParams: Promise<{ cursor?: string }> }) {
  const { workspaceId } = await params;
  const { cursor } = await searchParams;
  const ctx = await pageContext(workspaceId);
  const page = await loadAgentsPage(ctx, cursor).catch((err) => {
    if (err instanceof ValidationError) return loadAgentsPage(ctx);
    throw err;
  });
  const base = `/w/${workspaceId}/agents`;
  const newButton = page.canEdit ? (
    <Link href={`${base}/new`} className={buttonClass()}>
      New agent
    </Link>
  ) : null;
  return (
    <div>
      <PageHeader title="Agents" description="What you test: a chat model with a system prompt and mocked tools, or your own agent behind a URL." actions={newButton} />
      {page.agents.length === 0 && !cursor ? (
        <EmptyState
          title="No agents yet"
          description={page.canEdit ? "Create an agent, then add suites of test cases for it." : "Editors of this workspace can create agents."}
          action={newButton}
        />
      ) : (
        <AgentTable workspaceId={workspaceId} agents={page.agents} canEdit={page.canEdit} />
      )}
      {(cursor || page.nextCursor) && (
        <div className="mt-4 flex gap-3 text-sm">
          {cursor && (
            <Link href={base} className="text-indigo-700 hover:underline">
              First page
            </Link>
          )}
          {page.nextCursor && (
            <Link href={`${base}?cursor=${encodeURIComponent(page.nextCursor)}`} className="text-indigo-700 hover:underline">
              Next page
            </Link>
          )}
        </div>
      )}
    </div>
  );
}
