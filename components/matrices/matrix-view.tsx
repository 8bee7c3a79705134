"use client";
import type { RunSuiteInfo } from "@/lib/runs/dto";
import { cancelMatrixAction } from "@/lib/matrices/actions";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { CancelButton } from "@/components/ui/cancel-button";
import { Badge, Section } from "@/components/ui/card";
import { formatDateTime } from "@/components/runs/format";
import { matrixKeys, useMatrixData, type MatrixPageData } from "./hooks";
import {
  formatCost,
  formatMs,
  formatRate,
  isActiveMatrix,
  MATRIX_STATUS_LABELS,
  MATRIX_STATUS_TONES,
  shortName,
  suiteMatricesHref,
} from "./format";
import { MatrixCharts } from "./charts";
import { MatrixHeatMap } from "./heat-map";
import { CompareCombinations } from "./compare-combinations";

type Props = { workspaceId: string; initial: MatrixPageData; suite: RunSuiteInfo; canEdit: boolean };

/** The matrix page: live (polling) while pending or running; best combination, charts, compare and the case × combination table. */
export function MatrixView({ workspaceId, initial, suite, canEdit }: Props) {
  const { data = initial, isError, error } = useMatrixData(workspaceId, initial.matrix.id, initial);
  const { matrix: m, table } = data;
  const active = isActiveMatrix(m.status);
  const suiteHref = `/w/${workspaceId}/suites/${suite.id}`;
  const best = m.best_combination;
  const axes = Object.entries(m.axes);

  return (
    <div className="space-y-4">
      <Breadcrumbs
        items={[
          { label: "Suites", href: `/w/${workspaceId}/suites` },
          { label: suite.deleted ? `${suite.name} (deleted)` : suite.name, href: suite.deleted ? null : suiteHref },
          { label: "Matrix runs", href: suite.deleted ? null : suiteMatricesHref(workspaceId, suite.id) },
          { label: m.name },
        ]}
      />
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0 flex-1">
          <h1 className="flex flex-wrap items-center gap-3 text-xl font-semibold text-slate-900">
            {m.name}
            <Badge tone={MATRIX_STATUS_TONES[m.status]}>{MATRIX_STATUS_LABELS[m.status]}</Badge>
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            {axes.map(([name, values]) => `${name} (${values.length})`).join(" × ")} = {m.total_combinations} combinations
            {m.repetitions > 1 && ` · ${m.repetitions} repetitions`} · {m.finished_combinations}/{m.total_combinations} finished ·{" "}
            {m.started_at ? `started ${formatDateTime(m.started_at)}` : `created ${formatDateTime(m.created_at)}`}
          </p>
        </div>
        {canEdit && active && (
          <div className="shrink-0">
            <CancelButton
              confirm={{
                title: "Cancel this matrix run?",
                description: "Cases that have not started are skipped in every combination; cases already running finish or stop.",
                confirmLabel: "Yes, cancel the matrix",
              }}
              action={() => cancelMatrixAction(workspaceId, { id: m.id })}
              queryKey={matrixKeys.all(workspaceId, m.id)}
            >
              Cancel matrix
            </CancelButton>
          </div>
        )}
      </div>

      {isError && (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Live updates paused: {error.message}. Retrying…
        </p>
      )}

      <Section title="Best combination" className="p-4">
        {best ? (
          <p className="text-sm text-slate-700" data-testid="best-combination">
            <span className="font-semibold text-slate-900">
              {shortName(best.index)}: {best.label}
            </span>{" "}
            — pass rate {formatRate(best.pass_rate)}, estimated cost {formatCost(best.estimated_cost)}, latency p50{" "}
            {formatMs(best.latency_p50_ms)}
            {active && <span className="text-slate-500"> (so far)</span>}
          </p>
        ) : (
          <p className="text-sm text-slate-500">
            {active ? "Appears once a combination has executed a case." : "No combination executed a case."}
          </p>
        )}
        <p className="mt-1 text-xs text-slate-500">Highest pass rate, then lowest estimated cost, then lowest median latency.</p>
      </Section>

      <MatrixCharts combinations={m.combinations} bestIndex={best ? m.combinations.findIndex((c) => c.index === best.index) : null} />
      {canEdit && <CompareCombinations workspaceId={workspaceId} matrixId={m.id} combinations={m.combinations} />}
      <MatrixHeatMap workspaceId={workspaceId} combinations={m.combinations} table={table} />
    </div>
  );
}
