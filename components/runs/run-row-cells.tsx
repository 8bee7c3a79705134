import type { RunHistoryRow } from "@/lib/runs/dto";
import { formatUsd } from "@/lib/runs/cost";
import { numeric, TableCell, TableRow, type TableColumn } from "@/components/ui/table";
import { RunStatusBadge } from "./status-badges";
import { formatDateTime, formatDuration, formatPercent, TRIGGER_LABELS } from "./format";
import { ExperimentLink, RunMetadata } from "./run-metadata";

const num = "text-right tabular-nums";

/** The headers of `RunRow`'s cells after the run's name. */
export function runRowColumns(trigger: "Trigger" | "Experiment", metadata: string): TableColumn[] {
  return ["Status", "Started", trigger, metadata, ...numeric(["Passed", "Failed", "Errors", "Skipped", "Pass rate", "Duration", "Cost"])];
}

/**
 * A runs list's row: the run's name (`children`, the link to it) then its status (with progress
 * while active), start, trigger or the experiment it belongs to, metadata, counts, pass rate,
 * duration and cost. The suite's runs and the workspace's runs lists share it, so both read a run
 * the same way.
 */
export function RunRow({ workspaceId, run: r, children }: { workspaceId: string; run: RunHistoryRow; children: React.ReactNode }) {
  const active = r.status === "pending" || r.status === "running";
  return (
    <TableRow className="hover:bg-slate-50">
      <TableCell className="whitespace-nowrap">{children}</TableCell>
      <TableCell className="whitespace-nowrap">
        <RunStatusBadge status={r.status} />
        {active && (
          <span className="ml-2 text-xs text-slate-500">
            {r.done}/{r.total}
          </span>
        )}
      </TableCell>
      <TableCell className="whitespace-nowrap text-slate-700">{formatDateTime(r.started_at ?? r.created_at)}</TableCell>
      <TableCell className="text-slate-700">
        {r.experiment ? (
          <ExperimentLink workspaceId={workspaceId} run={r} className="whitespace-nowrap" />
        ) : (
          (TRIGGER_LABELS[r.triggered_by] ?? r.triggered_by)
        )}
      </TableCell>
      <TableCell className="max-w-56 min-w-44 text-xs text-slate-700">
        <RunMetadata metadata={r.metadata} fallback={<span className="text-slate-400">—</span>} />
      </TableCell>
      <TableCell className={num}>{r.passed}</TableCell>
      <TableCell className={num}>{r.failed}</TableCell>
      <TableCell className={num}>{r.errors}</TableCell>
      <TableCell className={num}>{r.skipped}</TableCell>
      <TableCell className={`${num} font-medium text-slate-900`}>{formatPercent(r.pass_rate)}</TableCell>
      <TableCell className={`${num} text-slate-700`}>{active ? "—" : formatDuration(r.duration_ms)}</TableCell>
      <TableCell className={`${num} text-slate-700`}>{formatUsd(r.cost_usd)}</TableCell>
    </TableRow>
  );
}
