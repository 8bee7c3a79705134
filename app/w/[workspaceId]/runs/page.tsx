import { pageContext } from "@/lib/auth/context";
import { loadWorkspaceRunsPage } from "@/lib/runs/workspace-runs/loaders";
import { PageHeader } from "@/components/ui/page-header";
import { PrevNextPagination } from "@/components/ui/pagination";
import { WorkspaceRunsFilters } from "@/components/runs/workspace-runs-filters";
import { WorkspaceRunsTable } from "@/components/runs/workspace-runs-table";
import type { WorkspacePageProps } from "@/lib/pages/props";

export const metadata = { title: "Runs" };

export default async function WorkspaceRunsPage({ params, searchParams }: WorkspacePageProps) {
  const { workspaceId } = await params;
  const ctx = await pageContext(workspaceId);
  const data = await loadWorkspaceRunsPage(ctx, await searchParams);
  const base = `/w/${workspaceId}/runs`;
  const href = (page: number) => {
    const q = new URLSearchParams();
    const { suite_id, ...rest } = data.raw;
    if (suite_id) q.set("suite", suite_id);
    for (const [k, v] of Object.entries(rest)) if (v) q.set(k, v);
    if (page > 1) q.set("page", String(page));
    const s = q.toString();
    return s ? `${base}?${s}` : base;
  };
  const from = data.total === 0 ? 0 : (data.page - 1) * data.pageSize + 1;
  const to = Math.min(data.total, data.page * data.pageSize);
  const last = Math.max(1, Math.ceil(data.total / data.pageSize));
  return (
    <div className="space-y-4">
      <PageHeader
        title="Runs"
        description="Every suite's runs, newest first. Filter by suite, status, trigger or metadata such as the branch."
      />
      <WorkspaceRunsFilters base={base} suites={data.suites} raw={data.raw} errors={data.errors} />
      <p className="text-sm text-slate-600" aria-live="polite">
        {data.total === 0 ? "No runs" : `${from}–${to} of ${data.total} runs`}
      </p>
      <WorkspaceRunsTable workspaceId={workspaceId} rows={data.rows} />
      <PrevNextPagination
        label="Runs pages"
        prev={data.page > 1 ? { href: href(Math.min(data.page - 1, last)) } : null}
        next={data.page < last ? { href: href(data.page + 1) } : null}
        status={`Page ${data.page} of ${last}`}
      />
    </div>
  );
}
