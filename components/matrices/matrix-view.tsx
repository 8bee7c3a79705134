"use client";
import type { RunSuiteInfo } from "@/lib/runs/dto";
import { cancelMatrixAction } from "@/lib/matrices/actions";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { LiveHeader, LiveUpdatesPaused } from "@/components/ui/live-view";
import { suiteCrumbs } from "@/components/suites/suite-crumbs";
import { CancelButton } from "@/components/ui/cancel-button";
import { Badge, Section } from "@/components/ui/card";
import { formatDateTime } from "@/components/runs/format";
import { matrixKeys, useMatrixData, type MatrixPageData } from "./hooks";
import { formatCost, formatMs, formatRate, isActiveMatrix, MATRIX_STATUS_LABELS, MATRIX_STATUS_TONES, shortName } from "./format";
import { MatrixCharts } from "./charts";
import { MatrixHeatMap } from "./heat-map";
import { CompareCombinations } from "./compare-combinations";

/** The matrix page's loaded data (`matrix` and `table` are where the live query starts). */
type Props = MatrixPageData & { workspaceId: string; suite: RunSuiteInfo; canEdit: boolean };

/** Asked before cancelling: what happens to the parts not yet finished. */
const CANCEL_MATRIX = {
  title: "Cancel this matrix run?",
  description: "Cases that have not started are skipped in every combination; cases already running finish or stop.",
  confirmLabel: "Yes, cancel the matrix",
};

/** The matrix page: live (polling) while pending or running; best combination, charts, compare and the case × combination table. */
export function MatrixView({ workspaceId, matrix, table: initialTable, suite, canEdit }: Props) {
  const initial = { matrix, table: initialTable };
  const { data = initial, isError, error } = useMatrixData(workspaceId, initial.matrix.id, initial);
  const { matrix: m, table } = data;
  const active = isActiveMatrix(m.status);
  const queryKey = matrixKeys.all(workspaceId, m.id);
  const cancel = canEdit && active && (
    <CancelButton confirm={CANCEL_MATRIX} action={() => cancelMatrixAction(workspaceId, { id: m.id })} queryKey={queryKey}>
      Cancel matrix
    </CancelButton>
  );
  const best = m.best_combination;
  const axes = Object.entries(m.axes);

  return (
    <div className="space-y-4">
      <Breadcrumbs items={suiteCrumbs(workspaceId, suite, "matrices", { label: m.name })} />
      <LiveHeader
        title={
          <>
            {m.name}
            <Badge tone={MATRIX_STATUS_TONES[m.status]}>{MATRIX_STATUS_LABELS[m.status]}</Badge>
          </>
        }
        action={cancel}
      >
        <p className="mt-1 text-sm text-slate-600">
          {axes.map(([name, values]) => `${name} (${values.length})`).join(" × ")} = {m.total_combinations} combinations
          {m.repetitions > 1 && ` · ${m.repetitions} repetitions`} · {m.finished_combinations}/{m.total_combinations} finished ·{" "}
          {m.started_at ? `started ${formatDateTime(m.started_at)}` : `created ${formatDateTime(m.created_at)}`}
        </p>
      </LiveHeader>

      <LiveUpdatesPaused error={isError ? error : null} />

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
