import { notFound } from "next/navigation";
import { pageContext } from "@/lib/auth/context";
import { hasRole } from "@/lib/auth/roles";
import { NotFoundError } from "@/lib/errors";
import { getTestCase } from "@/lib/test-cases/service";
import { PageHeader } from "@/components/ui/card";
import { CaseForm } from "@/components/test-cases/case-form";
import { CaseNotice } from "@/components/test-cases/case-notice";
import { loadCaseFormData } from "../form-data";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";

export const metadata = { title: "Test case" };

export default async function EditTestCasePage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string; suiteId: string; caseId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { workspaceId, suiteId, caseId } = await params;
  const sp = await searchParams;
  const ctx = await pageContext(workspaceId);
  const [testCase, { suite, suiteTags, tools }] = await Promise.all([getTestCase(ctx, caseId), loadCaseFormData(ctx, suiteId)]).catch(
    (err: unknown) => {
      if (err instanceof NotFoundError) notFound();
      throw err;
    },
  );
  if (testCase.suite_id !== suiteId) notFound();
  const base = `/w/${workspaceId}/suites/${suiteId}`;
  const canEdit = hasRole(ctx.role, "editor");
  return (
    <div className="max-w-4xl">
      <Breadcrumbs className="mb-3" items={[{ label: "Suites", href: `/w/${workspaceId}/suites` }, { label: suite.name, href: base }, { label: testCase.name }]} />
      <PageHeader title={testCase.name} description={`In suite ${suite.name} · agent ${suite.agent_name}`} />
      <CaseNotice className="mb-4" workspaceId={workspaceId} base={base} notice={typeof sp.notice === "string" ? sp.notice : undefined} canEdit={canEdit} />
      {/* Remount after a status change or save so the form shows the stored case. */}
      <CaseForm
        key={`${testCase.updated_at}-${testCase.status}`}
        mode="edit"
        workspaceId={workspaceId}
        suiteId={suiteId}
        testCase={testCase}
        suiteTags={suiteTags}
        tools={tools}
        canEdit={canEdit}
      />
    </div>
  );
}
