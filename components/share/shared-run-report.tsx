import Link from "next/link";
import { Card } from "@/components/ui/card";
import { Stat } from "@/components/ui/stat";
import { Table, TableBody, TableCell, TableHeader, TableRow, numeric } from "@/components/ui/table";
import { CaseStatusBadge, RunStatusBadge } from "@/components/runs/status-badges";
import { formatDateTime, formatDuration, formatNumber, formatPercent } from "@/components/runs/format";
import type { SharedRunReport } from "@/lib/share-links/loaders";

/**
 * A shared run report: the run's figures once, then every case, failures first, each with its
 * verdict and the reason it failed (the first failing check, or the error), linking to the case's
 * transcript on the shared page. Server-rendered from the share's allowlisted data: nothing here
 * fetches, edits or links into the app.
 */
export function SharedRunReportView({ token, report }: { token: string; report: SharedRunReport }) {
  const { run, suite, cases } = report;
  return (
    <>
      <div className="space-y-1">
        <h1 className="text-xl font-semibold break-words text-slate-900">
          {suite.name} · Run #{run.number}
        </h1>
        <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
          <RunStatusBadge status={run.status} />
          {suite.agentName && <span>Agent: {suite.agentName}</span>}
          <span>Finished {formatDateTime(run.completed_at)}</span>
        </div>
      </div>
      <Card className="p-5">
        <h2 className="sr-only">Summary</h2>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-4 lg:grid-cols-7">
          <Stat label="Pass rate" value={formatPercent(run.pass_rate)} testId="shared-pass-rate" />
          <Stat label="Passed" value={formatNumber(run.passed_cases)} />
          <Stat label="Failed" value={formatNumber(run.failed_cases)} tone={run.failed_cases > 0 ? "text-red-700" : undefined} />
          <Stat label="Errors" value={formatNumber(run.error_cases)} />
          <Stat label="Skipped" value={formatNumber(run.skipped_cases)} />
          <Stat label="Tokens" value={formatNumber(run.prompt_tokens + run.completion_tokens)} />
          <Stat
            label="Wall-clock time"
            title="From the run's start to its end"
            value={run.started_at && run.completed_at ? formatDuration(Date.parse(run.completed_at) - Date.parse(run.started_at)) : "—"}
          />
        </dl>
      </Card>
      <section aria-labelledby="shared-cases" className="space-y-2">
        <h2 id="shared-cases" className="text-base font-semibold">
          Cases <span className="font-normal text-slate-500">(failures first)</span>
        </h2>
        <Table caption="Cases of the run, failures first">
          <TableHeader columns={["Case", "Verdict", "Why", ...numeric(["Latency", "Tokens"])]} />
          <TableBody>
            {cases.map((c) => (
              <TableRow key={c.id}>
                <TableCell className="max-w-64 break-words">
                  <Link href={`/share/${token}/cases/${c.id}`} className="font-medium text-indigo-700 hover:underline">
                    {c.name}
                  </Link>
                  {run.trials > 1 && <span className="text-xs text-slate-500"> · trial {c.trial + 1}</span>}
                </TableCell>
                <TableCell>
                  <CaseStatusBadge status={c.status} />
                </TableCell>
                <TableCell className="max-w-md text-slate-700">
                  {c.reason ? (
                    <span className="line-clamp-3 break-words whitespace-pre-wrap">
                      {c.reason}
                      {c.more_reasons > 0 && <span className="text-slate-500"> (+{c.more_reasons} more)</span>}
                    </span>
                  ) : (
                    <span className="text-slate-400">—</span>
                  )}
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatDuration(c.latency_ms)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(c.tokens)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {report.truncated && <p className="text-sm text-slate-600">Only the first {formatNumber(cases.length)} results are shown.</p>}
      </section>
    </>
  );
}
