import Link from "next/link";
import type { RunHistoryRow } from "@/lib/runs/analytics";
import { RunStatusBadge } from "./status-badges";
import { formatDateTime, formatDuration, formatPercent, TRIGGER_LABELS } from "./format";
import { runHref } from "./charts-common";

const num = "px-3 py-2 text-right tabular-nums";

/** The suite's run history, newest first; each row links to its run page. */
export function SuiteRunsTable({ workspaceId, rows }: { workspaceId: string; rows: RunHistoryRow[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Run history, newest first</caption>
        <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-3 py-2">
              Status
            </th>
            <th scope="col" className="px-3 py-2">
              Started
            </th>
            <th scope="col" className="px-3 py-2">
              Trigger
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Passed
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Failed
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Errors
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Skipped
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Pass rate
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Duration
            </th>
            <th scope="col" className="px-3 py-2">
              <span className="sr-only">Open</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => {
            const active = r.status === "pending" || r.status === "running";
            const started = formatDateTime(r.started_at ?? r.created_at);
            return (
              <tr key={r.id} className="hover:bg-slate-50">
                <td className="px-3 py-2">
                  <RunStatusBadge status={r.status} />
                  {active && (
                    <span className="ml-2 text-xs text-slate-500">
                      {r.done}/{r.total}
                    </span>
                  )}
                </td>
                <td className="whitespace-nowrap px-3 py-2 text-slate-700">{started}</td>
                <td className="px-3 py-2 text-slate-700">{TRIGGER_LABELS[r.triggered_by] ?? r.triggered_by}</td>
                <td className={num}>{r.passed}</td>
                <td className={num}>{r.failed}</td>
                <td className={num}>{r.errors}</td>
                <td className={num}>{r.skipped}</td>
                <td className={`${num} font-medium text-slate-900`}>{formatPercent(r.pass_rate)}</td>
                <td className={`${num} text-slate-700`}>{active ? "—" : formatDuration(r.duration_ms)}</td>
                <td className="px-3 py-2 text-right">
                  <Link href={runHref(workspaceId, r.id)} className="font-medium text-indigo-600 hover:underline">
                    View<span className="sr-only"> run started {started}</span>
                  </Link>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
