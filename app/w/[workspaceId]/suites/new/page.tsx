import Link from "next/link";
import { pageContext } from "@/lib/auth/context";
import { loadNewSuitePage } from "@/lib/suites/loaders";
import { buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { SuiteForm } from "@/components/suites/suite-form";
import type { WorkspacePageProps } from "@/lib/pages/props";

export default async function NewSuitePage({ params, searchParams }: WorkspacePageProps) {
  const { workspaceId } = await params;
  const sp = await searchParams;
  const ctx = await pageContext(workspaceId);
  const data = await loadNewSuitePage(ctx, sp);
  const back = (
    <Link href={`/w/${workspaceId}/suites`} className={buttonClass("secondary")}>
      Back to suites
    </Link>
  );
  // Why the form cannot be shown: a viewer, or no agent to test yet.
  const blocked: React.ComponentProps<typeof EmptyState> | null = !data.canEdit
    ? { title: "Read-only access", description: "Your role (viewer) can read suites but not create them. Ask an editor or admin." }
    : data.agents.length === 0
      ? {
          title: "Create an agent first",
          description: "A suite tests one agent.",
          action: (
            <Link href={`/w/${workspaceId}/agents/new`} className={buttonClass("primary")}>
              New agent
            </Link>
          ),
        }
      : null;
  return (
    <div>
      <PageHeader title="New suite" description={blocked ? undefined : "A suite groups test cases for one agent."} actions={back} />
      {blocked ? (
        <EmptyState {...blocked} />
      ) : (
        <SuiteForm workspaceId={workspaceId} agents={data.agents} modelConfigs={data.modelConfigs} defaultAgentId={data.defaultAgentId} />
      )}
    </div>
  );
}
