import Link from "next/link";
import { pageContext } from "@/lib/auth/context";
import { loadSuitesPage } from "@/lib/suites/loaders";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/card";
import { ListPage } from "@/components/ui/list-page";
import { SuiteTable } from "@/components/suites/suite-table";
import { AgentFilter } from "@/components/suites/agent-filter";
import { LoadDemoButton } from "@/components/demo/load-demo-button";
import type { WorkspacePageProps } from "@/lib/pages/props";

export default async function SuitesPage({ params, searchParams }: WorkspacePageProps) {
  const { workspaceId } = await params;
  const sp = await searchParams;
  const ctx = await pageContext(workspaceId);
  const data = await loadSuitesPage(ctx, sp);
  const base = `/w/${workspaceId}/suites`;
  const filtered = data.agentId ? `?agent=${data.agentId}` : "";
  const newHref = `${base}/new${filtered}`;

  return (
    <ListPage
      header={{
        title: "Suites",
        description: "Test cases grouped per agent, with schedule, judge and regression alerts.",
        actions: (
          <>
            <Link href={`${base}/trash`} className={buttonClass("ghost")}>
              Trash
            </Link>
            {/* When the list is empty, the empty state offers the button instead. */}
            {data.canEdit && (data.suites.length > 0 || data.agents.length === 0) && (
              <Link href={newHref} className={buttonClass("primary")}>
                New suite
              </Link>
            )}
          </>
        ),
      }}
      empty={
        data.agents.length === 0
          ? {
              title: "No suites yet",
              description: "A suite tests one agent. Create an agent first, then add suites for it.",
              action: data.canEdit ? (
                <div className="flex flex-col items-center gap-4">
                  <Link href={`/w/${workspaceId}/agents/new`} className={buttonClass("primary")}>
                    New agent
                  </Link>
                  {data.canLoadDemo && <LoadDemoButton workspaceId={workspaceId} />}
                </div>
              ) : undefined,
            }
          : null
      }
      pagination={{ base, params: { agent: data.agentId }, cursor: data.cursor, nextCursor: data.nextCursor }}
    >
      <AgentFilter basePath={base} agents={data.agents} value={data.agentId} />
      {data.suites.length === 0 ? (
        <EmptyState
          title={data.agentId ? "This agent has no suites yet" : "No suites yet"}
          description={data.canEdit ? "Create a suite, then add test cases to it." : "Editors can create suites."}
          action={
            data.canEdit ? (
              <Link href={newHref} className={buttonClass("primary")}>
                New suite
              </Link>
            ) : undefined
          }
        />
      ) : (
        <SuiteTable workspaceId={workspaceId} suites={data.suites} canEdit={data.canEdit} />
      )}
    </ListPage>
  );
}
