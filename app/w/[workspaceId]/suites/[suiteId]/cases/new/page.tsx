import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadNewTestCasePage } from "@/lib/test-cases/loaders";
import { PageHeader } from "@/components/ui/page-header";
import { CaseForm } from "@/components/test-cases/case-form";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { suiteCrumbs } from "@/components/suites/suite-crumbs";
import type { WorkspaceParams } from "@/lib/pages/props";

export const metadata = { title: "New test case" };

export default async function NewTestCasePage({ params }: WorkspaceParams<{ suiteId: string }>) {
  const { workspaceId, suiteId } = await params;
  const ctx = await pageContext(workspaceId);
  const { suite, suiteTags, tools, canEdit, variableDefinitions } = await orNotFound(loadNewTestCasePage(ctx, suiteId));
  return (
    <div className="max-w-4xl">
      <Breadcrumbs className="mb-3" items={suiteCrumbs(workspaceId, { id: suiteId, name: suite.name }, null, { label: "New test case" })} />
      <PageHeader title="New test case" description={`In suite ${suite.name} · agent ${suite.agent_name}`} />
      {canEdit ? (
        <CaseForm
          mode="create"
          workspaceId={workspaceId}
          suiteId={suiteId}
          suiteTags={suiteTags}
          tools={tools}
          variableDefinitions={variableDefinitions}
          canEdit
        />
      ) : (
        <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Viewers cannot create test cases. Ask a workspace admin for the editor role.
        </p>
      )}
    </div>
  );
}
