"use client";
import { useEffect, useRef } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { ComparisonDto } from "@/lib/comparisons/dto";
import type { RunSuiteInfo } from "@/lib/runs/dto";
import { cancelComparisonAction } from "@/lib/comparisons/actions";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { CancelButton } from "@/components/ui/cancel-button";
import { formatDateTime, formatDuration } from "@/components/runs/format";
import { comparisonKeys, isActiveComparison, useChartData, useComparison, type ChartData, type PairPage } from "./hooks";
import { suiteComparisonsHref } from "./paths";
import { SOURCE_LABELS } from "./format";
import { ComparisonStatusBadge } from "./status-badge";
import { ComparisonProgress } from "./comparison-progress";
import { ComparisonHeadline } from "./headline";
import { ArmsCard } from "./arms-card";
import { ComparisonCharts } from "./charts";
import { PairsTable } from "./pairs-table";
import { ComparisonExports } from "./comparison-exports";

type Props = {
  workspaceId: string;
  initial: ComparisonDto;
  suite: RunSuiteInfo;
  canEdit: boolean;
  initialChart: ChartData;
  initialPairs: PairPage;
  pageSize: number;
};

/** The comparison page: live (polling) while pending or running, then the final headline, charts and pairs. */
export function ComparisonView({ workspaceId, initial, suite, canEdit, initialChart, initialPairs, pageSize }: Props) {
  const queryClient = useQueryClient();
  const { data: c = initial, isError, error } = useComparison(workspaceId, initial.id, initial);
  const active = isActiveComparison(c.status);
  const chart = useChartData(workspaceId, c.id, { live: active, initial: initialChart });

  // When the comparison finishes, refresh the pairs and charts once more (last pairs, final numbers).
  const wasActive = useRef(active);
  useEffect(() => {
    if (wasActive.current && !active) void queryClient.invalidateQueries({ queryKey: comparisonKeys.all(workspaceId, c.id) });
    wasActive.current = active;
  }, [active, queryClient, workspaceId, c.id]);

  const suiteHref = `/w/${workspaceId}/suites/${suite.id}`;
  const title = c.name || `${c.baseline?.label ?? "Baseline"} vs ${c.variant?.label ?? "Variant"}`;
  const pairs = chart.data?.pairs ?? [];

  return (
    <div className="space-y-4">
      <Breadcrumbs
        items={[
          { label: "Suites", href: `/w/${workspaceId}/suites` },
          { label: suite.deleted ? `${suite.name} (deleted)` : suite.name, href: suite.deleted ? null : suiteHref },
          { label: "Comparisons", href: suite.deleted ? null : suiteComparisonsHref(workspaceId, suite.id) },
          { label: title },
        ]}
      />
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0 flex-1">
          <h1 className="flex flex-wrap items-center gap-3 text-xl font-semibold text-slate-900">
            {title}
            <ComparisonStatusBadge status={c.status} />
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            {SOURCE_LABELS[c.source] ?? c.source} · {c.baseline?.label ?? "A"} (A) vs {c.variant?.label ?? "B"} (B) ·{" "}
            {c.started_at ? `started ${formatDateTime(c.started_at)}` : `created ${formatDateTime(c.created_at)}`}
            {c.duration_ms !== null && ` · took ${formatDuration(c.duration_ms)}`}
          </p>
        </div>
        {canEdit && active && (
          <div className="shrink-0">
            <CancelButton
              confirm={{
                title: "Cancel this comparison?",
                description:
                  "Pairs that have not started are skipped; pairs already running finish or stop. The statistics cover the completed pairs.",
                confirmLabel: "Yes, cancel the comparison",
              }}
              action={() => cancelComparisonAction(workspaceId, { id: c.id })}
              queryKey={comparisonKeys.all(workspaceId, c.id)}
            >
              Cancel comparison
            </CancelButton>
          </div>
        )}
      </div>
      <ComparisonExports workspaceId={workspaceId} comparisonId={c.id} />

      {isError && (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Live updates paused: {error.message}. Retrying…
        </p>
      )}

      {(c.source === "executed" || active || c.error_message) && <ComparisonProgress comparison={c} />}
      <ComparisonHeadline summary={c.summary} live={active} />
      <ArmsCard workspaceId={workspaceId} comparison={c} />
      <ComparisonCharts workspaceId={workspaceId} comparisonId={c.id} pairs={pairs} repetitions={c.repetitions} />
      <PairsTable
        workspaceId={workspaceId}
        comparisonId={c.id}
        repetitions={c.repetitions}
        live={active}
        initial={initialPairs}
        pageSize={pageSize}
      />
    </div>
  );
}
