import Link from "next/link";
import type { RunHistoryRow } from "@/lib/runs/dto";
import { RunStatusBadge } from "./status-badges";
import { formatDateTime, formatDuration, formatPercent, TRIGGER_LABELS } from "./format";
import { runHref } from "./charts-common";
import { numeric, Table, TableBody, TableCell, TableHeader, TableRow } from "@/components/ui/table";

const num = "text-right tabular-nums";

/** The suite's run history, newest first; each row links to its run page. */
export function SuiteRunsTable({ workspaceId, rows }: { workspaceId: string; rows: RunHistoryRow[] }) {
  return (
    <Table density="compact" caption="Run history, newest first">
      <TableHeader
        columns={[
          "Status",
          "Started",
          "Trigger",
          ...numeric(["Passed", "Failed", "Errors", "Skipped", "Pass rate", "Duration"]),
          { label: "Open", srOnly: true },
        ]}
      />
      <TableBody>
        {rows.map((r) => {
          const active = r.status === "pending" || r.status === "running";
          const started = formatDateTime(r.started_at ?? r.created_at);
          return (
            <TableRow key={r.id} className="hover:bg-slate-50">
              <TableCell>
                <RunStatusBadge status={r.status} />
                {active && (
                  <span className="ml-2 text-xs text-slate-500">
                    {r.done}/{r.total}
                  </span>
                )}
              </TableCell>
              <TableCell className="whitespace-nowrap text-slate-700">{started}</TableCell>
              <TableCell className="text-slate-700">
                {TRIGGER_LABELS[r.triggered_by] ?? r.triggered_by}
                {r.comparison_id && (
                  <Link
                    href={`/w/${workspaceId}/comparisons/${r.comparison_id}`}
                    className="ml-2 inline-flex rounded bg-indigo-100 px-1.5 py-0.5 text-xs font-medium text-indigo-800 hover:underline"
                    title="This run is an arm of an A/B comparison"
                  >
                    A/B{r.arm_index === 0 ? " · A" : r.arm_index === 1 ? " · B" : ""}
                    <span className="sr-only">: open the comparison this run belongs to</span>
                  </Link>
                )}
                {r.matrix_id && (
                  <Link
                    href={`/w/${workspaceId}/matrices/${r.matrix_id}`}
                    className="ml-2 inline-flex rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-medium text-emerald-800 hover:underline"
                    title="This run is one combination of a matrix run"
                  >
                    Matrix{r.combination_index === null || r.combination_index === undefined ? "" : ` · #${r.combination_index + 1}`}
                    <span className="sr-only">: open the matrix this run belongs to</span>
                  </Link>
                )}
              </TableCell>
              <TableCell className={num}>{r.passed}</TableCell>
              <TableCell className={num}>{r.failed}</TableCell>
              <TableCell className={num}>{r.errors}</TableCell>
              <TableCell className={num}>{r.skipped}</TableCell>
              <TableCell className={`${num} font-medium text-slate-900`}>{formatPercent(r.pass_rate)}</TableCell>
              <TableCell className={`${num} text-slate-700`}>{active ? "—" : formatDuration(r.duration_ms)}</TableCell>
              <TableCell className="text-right">
                <Link href={runHref(workspaceId, r.id)} className="font-medium text-indigo-600 hover:underline">
                  View<span className="sr-only"> run started {started}</span>
                </Link>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
