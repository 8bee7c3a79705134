import Link from "next/link";
import type { RunHistoryRow } from "@/lib/runs/dto";
import { runLabel } from "@/lib/runs/dto";
import { formatUsd } from "@/lib/runs/cost";
import type { SuiteRunsKind } from "@/lib/runs/suite-runs-location";
import { RunStatusBadge } from "./status-badges";
import { formatDateTime, formatDuration, formatPercent, TRIGGER_LABELS } from "./format";
import { runHref } from "./charts-common";
import { ExperimentLink, RunMetadata } from "./run-metadata";
import { numeric, Table, TableBody, TableCell, TableHeader, TableRow } from "@/components/ui/table";

const num = "text-right tabular-nums";

/**
 * A page of the suite's runs, newest first: the history (ordinary runs, with their trigger) or
 * the experiments (each named by the comparison arm or matrix combination it is, linked there).
 * Each row is named by its run number, which links to the run page.
 */
export function SuiteRunsTable({ workspaceId, rows, kind }: { workspaceId: string; rows: RunHistoryRow[]; kind: SuiteRunsKind }) {
  return (
    <Table density="compact" caption={kind === "experiment" ? "Experiment runs, newest first" : "Run history, newest first"}>
      <TableHeader
        columns={[
          "Run",
          "Status",
          "Started",
          kind === "experiment" ? "Experiment" : "Trigger",
          "Commit",
          ...numeric(["Passed", "Failed", "Errors", "Skipped", "Pass rate", "Duration", "Cost"]),
        ]}
      />
      <TableBody>
        {rows.map((r) => {
          const active = r.status === "pending" || r.status === "running";
          return (
            <TableRow key={r.id} className="hover:bg-slate-50">
              <TableCell className="whitespace-nowrap">
                <Link
                  href={runHref(workspaceId, r.id)}
                  aria-label={`Run ${runLabel(r)}`}
                  className="font-medium text-indigo-600 tabular-nums hover:underline"
                >
                  {runLabel(r)}
                </Link>
              </TableCell>
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
        })}
      </TableBody>
    </Table>
  );
}
