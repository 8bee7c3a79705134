import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadTestCasePage } from "@/lib/test-cases/loaders";
import { PageHeader } from "@/components/ui/page-header";
import { CaseForm } from "@/components/test-cases/case-form";
import { CaseNotice } from "@/components/test-cases/case-notice";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { suiteCrumbs } from "@/components/suites/suite-crumbs";
import { StartRunButton } from "@/components/runs/start-run-button";
import type { WorkspacePageProps } from "@/lib/pages/props";
import { loadCaseSource } from "@/lib/traffic/loaders";
import { CaseSourceNote } from "@/components/traffic/case-source-note";

export const metadata = { title: "Test case" };

export default async function EditTestCasePage({ params, searchParams }: WorkspacePageProps<{ suiteId: string; caseId: string }>) {
  const { workspaceId, suiteId, caseId } = await params;
  const sp = await searchParams;
  const ctx = await pageContext(workspaceId);
  const { testCase, suite, suiteTags, form, canEdit, notice, runVariables } = await orNotFound(loadTestCasePage(ctx, suiteId, caseId, sp));
  const base = `/w/${workspaceId}/suites/${suiteId}`;
  const origin = await loadCaseSource(ctx, testCase.source);
  return (
    <div className="max-w-4xl">
      <Breadcrumbs className="mb-3" items={suiteCrumbs(workspaceId, { id: suiteId, name: suite.name }, null, { label: testCase.name })} />
      <PageHeader
        title={testCase.name}
        description={`In suite ${suite.name} · agent ${suite.agent_name}`}
        actions={
          canEdit && testCase.status !== "archived" ? (
            <StartRunButton
              suite={{ workspaceId, suiteId, tags: suiteTags, variables: runVariables, defaultTrials: suite.default_trials }}
              caseIds={[testCase.id]}
              caseConfig={testCase.variables}
              label="Run this case"
            />
          ) : undefined
        }
      />
      {origin && <CaseSourceNote workspaceId={workspaceId} source={origin.source} retained={origin.retained} />}
      <CaseNotice className="mb-4" workspaceId={workspaceId} base={base} notice={notice} canEdit={canEdit} />
      {/* Remount after a status change or save so the form shows the stored case. */}
      <CaseForm key={`${testCase.updated_at}-${testCase.status}`} mode="edit" suite={form} testCase={testCase} canEdit={canEdit} />
    </div>
  );
}
