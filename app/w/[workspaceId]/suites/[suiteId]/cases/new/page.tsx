import Link from "next/link";
import { notFound } from "next/navigation";
import { pageContext } from "@/lib/auth/context";
import { hasRole } from "@/lib/auth/roles";
import { NotFoundError } from "@/lib/errors";
import { PageHeader } from "@/components/ui/card";
import { CaseForm } from "@/components/test-cases/case-form";
import { loadCaseFormData } from "../form-data";

export const metadata = { title: "New test case" };

export default async function NewTestCasePage({ params }: { params: Promise<{ workspaceId: string; suiteId: string }> }) {
  const { workspaceId, suiteId } = await params;
  const ctx = await pageContext(workspaceId);
  const { suite, suiteTags, tools } = await loadCaseFormData(ctx, suiteId).catch((err: unknown) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
  const base = `/w/${workspaceId}/suites/${suiteId}`;
  return (
    <div className="max-w-4xl">
      <nav aria-label="Breadcrumb" className="mb-3 text-sm text-slate-500">
        <Link href={`/w/${workspaceId}/suites`} className="hover:underline">
          Suites
        </Link>{" "}
        /{" "}
        <Link href={base} className="hover:underline">
          {suite.name}
        </Link>{" "}
        / <span className="text-slate-700">New test case</span>
      </nav>
      <PageHeader title="New test case" description={`In suite ${suite.name} · agent ${suite.agent_name}`} />
      {hasRole(ctx.role, "editor") ? (
        <CaseForm mode="create" workspaceId={workspaceId} suiteId={suiteId} suiteTags={suiteTags} tools={tools} canEdit />
      ) : (
        <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Viewers cannot create test cases. Ask a workspace admin for the editor role.
        </p>
      )}
    </div>
  );
}
