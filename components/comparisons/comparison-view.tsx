"use client";
import type { ComparisonChartData, ComparisonDto } from "@/lib/comparisons/dto";
import { ShareButton } from "@/components/share/share-button";
import type { RunSuiteInfo } from "@/lib/runs/dto";
import { cancelComparisonAction } from "@/lib/comparisons/actions";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { LiveHeader, LiveUpdatesPaused, useRefreshWhenFinished } from "@/components/ui/live-view";
import { suiteCrumbs } from "@/components/suites/suite-crumbs";
import { CancelButton } from "@/components/ui/cancel-button";
import { formatDateTime, formatDuration } from "@/components/runs/format";
import { comparisonKeys, isActiveComparison, useChartData, useComparison, type PairPage } from "./hooks";
import { SOURCE_LABELS } from "./format";
import { ComparisonStatusBadge } from "./status-badge";
import { ComparisonProgress } from "./comparison-progress";
import { ComparisonHeadline } from "./headline";
import { ArmsCard } from "./arms-card";
import { ComparisonCharts } from "./charts";
import { PairsTable } from "./pairs-table";
import { ComparisonExports } from "./comparison-exports";

/** The comparison page's loaded data (`comparison`, `chart`, `pairs` are where the live queries start). */
type Props = {
  workspaceId: string;
  comparison: ComparisonDto;
  suite: RunSuiteInfo;
  canEdit: boolean;
  chart: ComparisonChartData;
  pairs: PairPage;
  pageSize: number;
};

/** One part of the page (verdict, charts, pairs), open at first; closing it brings the next part up to read on one screen. */
function Collapsible({ summary, children }: { summary: string; children: React.ReactNode }) {
  return (
    <details open className="space-y-4">
      <summary className="cursor-pointer text-sm font-semibold text-slate-700 select-none hover:text-slate-900">{summary}</summary>
      {children}
    </details>
  );
}

/** Asked before cancelling: what happens to the parts not yet finished. */
const CANCEL_COMPARISON = {
  title: "Cancel this comparison?",
  description: "Pairs that have not started are skipped; pairs already running finish or stop. The statistics cover the completed pairs.",
  confirmLabel: "Yes, cancel the comparison",
};

/** The comparison page: live (polling) while pending or running, then the final headline, charts and pairs. */
export function ComparisonView({
  workspaceId,
  comparison: initial,
  suite,
  canEdit,
  chart: initialChart,
  pairs: initialPairs,
  pageSize,
}: Props) {
  const { data: c = initial, isError, error } = useComparison(workspaceId, initial.id, initial);
  const active = isActiveComparison(c.status);
  const chart = useChartData(workspaceId, c.id, { live: active, initial: initialChart });

  const queryKey = comparisonKeys.all(workspaceId, c.id);
  // When the comparison finishes, refresh the pairs and charts once more (last pairs, final numbers).
  useRefreshWhenFinished(active, queryKey);

  const title = c.name || `${c.baseline?.label ?? "Baseline"} vs ${c.variant?.label ?? "Variant"}`;
  const pairs = chart.data?.pairs ?? [];
  const cancel = canEdit && active && (
    <CancelButton confirm={CANCEL_COMPARISON} action={() => cancelComparisonAction(workspaceId, { id: c.id })} queryKey={queryKey}>
      Cancel comparison
    </CancelButton>
  );

  return (
    <div className="space-y-4">
      <Breadcrumbs items={suiteCrumbs(workspaceId, suite, "comparisons", { label: title })} />
      <LiveHeader
        title={
          <>
            {title}
            <ComparisonStatusBadge status={c.status} />
          </>
        }
        action={cancel}
      >
        <p className="mt-1 text-sm text-slate-600">
          {SOURCE_LABELS[c.source] ?? c.source} · {c.baseline?.label ?? "A"} (A) vs {c.variant?.label ?? "B"} (B) ·{" "}
          {c.started_at ? `started ${formatDateTime(c.started_at)}` : `created ${formatDateTime(c.created_at)}`}
          {c.duration_ms !== null && ` · took ${formatDuration(c.duration_ms)}`}
        </p>
      </LiveHeader>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <ComparisonExports workspaceId={workspaceId} comparisonId={c.id} />
        {canEdit && <ShareButton workspaceId={workspaceId} target={{ kind: "comparison", id: c.id }} />}
      </div>

      <LiveUpdatesPaused error={isError ? error : null} />

      {(c.source === "executed" || active || c.error_message) && <ComparisonProgress comparison={c} />}
      <Collapsible summary="Verdict and arms">
        <ComparisonHeadline summary={c.summary} live={active} />
        <ArmsCard workspaceId={workspaceId} comparison={c} />
      </Collapsible>
      <Collapsible summary="Charts">
        <ComparisonCharts workspaceId={workspaceId} comparisonId={c.id} pairs={pairs} repetitions={c.repetitions} />
      </Collapsible>
      <Collapsible summary="Pairs">
        <PairsTable
          workspaceId={workspaceId}
          comparisonId={c.id}
          repetitions={c.repetitions}
          live={active}
          initial={initialPairs}
          pageSize={pageSize}
        />
      </Collapsible>
    </div>
  );
}
