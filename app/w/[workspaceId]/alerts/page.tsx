import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadAlertsPage } from "@/lib/alerts/loaders";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/card";
import { Pagination } from "@/components/ui/pagination";
import { AlertCard } from "@/components/alerts/alert-card";
import { AlertFilters } from "@/components/alerts/alert-filters";
import type { WorkspacePageProps } from "@/lib/pages/props";

export const metadata = { title: "Alerts" };

export default async function AlertsPage({ params, searchParams }: WorkspacePageProps) {
  const { workspaceId } = await params;
  const sp = await searchParams;
  const ctx = await pageContext(workspaceId);
  const { alerts, nextCursor, suites, filters } = await orNotFound(loadAlertsPage(ctx, sp));
  const base = `/w/${workspaceId}/alerts`;
  return (
    <div className="max-w-4xl space-y-4">
      <PageHeader
        title="Regression alerts"
        description="Raised when a completed run's pass rate drops by at least its suite's threshold (in percentage points) against its baseline: the pinned run, or the previous completed run over the same cases."
      />
      <AlertFilters base={base} suites={suites} filters={filters} />
      {alerts.length === 0 ? (
        <EmptyState
          title={filters.status === "open" ? "No open alerts" : "No alerts match these filters"}
          description="Alerts appear here when a run regresses. Acknowledged alerts are under Status → Acknowledged."
        />
      ) : (
        <div className="space-y-3">
          {alerts.map((a) => (
            <AlertCard key={a.id} workspaceId={workspaceId} alert={a} />
          ))}
        </div>
      )}
      <Pagination base={base} params={{ suite: filters.suite, status: filters.status }} cursor={filters.cursor} nextCursor={nextCursor} />
    </div>
  );
}
