import Link from "next/link";
import type { WorkspaceRunRow } from "@/lib/runs/workspace-runs/service";
import { runLabel } from "@/lib/runs/dto";
import { RunStatusBadge } from "./status-badges";
import { formatDateTime, formatDuration, formatPercent, TRIGGER_LABELS } from "./format";
import { runHref } from "./charts-common";
import { ExperimentLink, RunMetadata } from "./run-metadata";
import { formatUsd } from "@/lib/runs/cost";
import { numeric, Table, TableBody, TableCell, TableEmpty, TableHeader, TableRow } from "@/components/ui/table";

const num = "text-right tabular-nums";

/** A page of the workspace's runs across suites, newest first; each row is named by its suite and run number. */
export function WorkspaceRunsTable({ workspaceId, rows }: { workspaceId: string; rows: WorkspaceRunRow[] }) {
  return (
    <Table density="compact" caption="Runs, newest first">
      <TableHeader
        columns={[
          "Run",
          "Status",
          "Started",
          "Trigger",
          "Metadata",
          ...numeric(["Passed", "Failed", "Errors", "Pass rate", "Duration", "Cost"]),
        ]}
      />
      <TableBody>
        {rows.length === 0 && <TableEmpty colSpan={11}>No run matches these filters.</TableEmpty>}
        {rows.map((r) => {
          const active = r.status === "pending" || r.status === "running";
          return (
            <TableRow key={r.id} className="hover:bg-slate-50">
              <TableCell className="whitespace-nowrap">
                <Link href={runHref(workspaceId, r.id)} className="font-medium text-indigo-600 hover:underline">
                  {r.suite_name} <span className="tabular-nums">{runLabel(r)}</span>
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
