import { pageContext } from "@/lib/auth/context";
import { loadTrafficPage } from "@/lib/traffic/loaders";
import { PageHeader } from "@/components/ui/page-header";
import { PrevNextPagination } from "@/components/ui/pagination";
import { TrafficFilters } from "@/components/traffic/traffic-filters";
import { ConversationList } from "@/components/traffic/conversation-list";
import { ExporterSetup } from "@/components/traffic/exporter-setup";
import type { WorkspacePageProps } from "@/lib/pages/props";

export const metadata = { title: "Traffic" };

export default async function TrafficPage({ params, searchParams }: WorkspacePageProps) {
  const { workspaceId } = await params;
  const ctx = await pageContext(workspaceId);
  const data = await loadTrafficPage(ctx, await searchParams);
  const base = `/w/${workspaceId}/traffic`;
  const filterQuery = new URLSearchParams(Object.entries(data.raw).filter((e): e is [string, string] => Boolean(e[1])));
  const href = (cursor: string | null) => {
    const q = new URLSearchParams(filterQuery);
    if (cursor) q.set("cursor", cursor);
    const s = q.toString();
    return s ? `${base}?${s}` : base;
  };
  const filtered = filterQuery.size > 0;
  return (
    <div className="space-y-4">
      <PageHeader
        title="Traffic"
        description="Your agents' real conversations, received as OpenTelemetry traces, newest first. Open one to read it like a case transcript and make it a test case."
      />
      <TrafficFilters base={base} raw={data.raw} errors={data.errors} services={data.services} agents={data.agents} />
      {data.errors.cursor && (
        <p role="alert" className="text-sm text-red-700">
          {data.errors.cursor} Showing the first page.
        </p>
      )}
      <ConversationList workspaceId={workspaceId} rows={data.data} canEdit={data.canEdit} filtered={filtered} />
      <PrevNextPagination
        label="Conversation pages"
        prev={data.firstPage ? null : { href: href(null) }}
        prevLabel="← Newest"
        next={data.next_cursor ? { href: href(data.next_cursor) } : null}
        nextLabel="Older →"
      />
      {data.data.length === 0 && !filtered && <ExporterSetup />}
    </div>
  );
}
