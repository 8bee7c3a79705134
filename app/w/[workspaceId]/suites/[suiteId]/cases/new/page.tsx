import Link from "next/link";
import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadNewTestCasePage } from "@/lib/test-cases/loaders";
import { loadCaseDraft } from "@/lib/traffic/loaders";
import { PageHeader } from "@/components/ui/page-header";
import { CaseForm } from "@/components/test-cases/case-form";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { suiteCrumbs } from "@/components/suites/suite-crumbs";
import { DraftNotice } from "@/components/traffic/draft-notice";
import type { WorkspacePageProps } from "@/lib/pages/props";

export const metadata = { title: "New test case" };

/** A new case, empty, or drafted from a conversation or a case result (`?conversation=…` / `?case_result=…`) for review. */
export default async function NewTestCasePage({ params, searchParams }: WorkspacePageProps<{ suiteId: string }>) {
  const { workspaceId, suiteId } = await params;
  const ctx = await pageContext(workspaceId);
  const { suite, form, canEdit } = await orNotFound(loadNewTestCasePage(ctx, suiteId));
  const drafting = canEdit ? await loadCaseDraft(ctx, suiteId, await searchParams) : null;
  const draft = drafting?.draft ?? undefined;
  return (
    <div className="max-w-4xl">
      <Breadcrumbs className="mb-3" items={suiteCrumbs(workspaceId, { id: suiteId, name: suite.name }, null, { label: "New test case" })} />
      <PageHeader
        title={draft ? "New test case from a conversation" : "New test case"}
        description={`In suite ${suite.name} · agent ${suite.agent_name}`}
      />
      {drafting?.error && (
        <p role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          Could not draft the case: {drafting.error} The form below is empty.{" "}
          <Link href={`/w/${workspaceId}/traffic`} className="underline">
            Back to Traffic
          </Link>
        </p>
      )}
      {draft && <DraftNotice workspaceId={workspaceId} draft={draft} />}
      {canEdit ? (
        <CaseForm mode="create" suite={form} draft={draft} canEdit />
      ) : (
        <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Viewers cannot create test cases. Ask a workspace admin for the editor role.
        </p>
      )}
    </div>
  );
}
