import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeader, TableRow, numeric } from "@/components/ui/table";
import { CaseStatusBadge } from "@/components/runs/status-badges";
import { formatDateTime, formatNumber } from "@/components/runs/format";
import { ComparisonHeadline } from "@/components/comparisons/headline";
import { ComparisonStatusBadge, VerdictChangeBadge } from "@/components/comparisons/status-badge";
import { signed } from "@/components/comparisons/format";
import type { SharedComparisonReport } from "@/lib/share-links/loaders";

/**
 * A shared comparison: the verdict and headline figures, the two arms (label, run, model; never a
 * base URL or key) and the pairs, flipped ones first. Server-rendered from the share's data.
 */
export function SharedComparisonReportView({ report }: { report: SharedComparisonReport }) {
  const { comparison, suite, pairs } = report;
  const live = comparison.status === "pending" || comparison.status === "running";
  return (
    <>
      <div className="space-y-1">
        <h1 className="text-xl font-semibold break-words text-slate-900">
          {suite.name} · {comparison.name}
        </h1>
        <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
          <ComparisonStatusBadge status={comparison.status} />
          <span>
            {formatNumber(comparison.completed_pairs)} of {formatNumber(comparison.total_pairs)} pairs
          </span>
          {comparison.completed_at && <span>Finished {formatDateTime(comparison.completed_at)}</span>}
        </div>
      </div>
      <ComparisonHeadline summary={comparison.summary} live={live} />
      <Card className="p-5">
        <h2 className="mb-2 text-base font-semibold">Arms</h2>
        <ul className="grid gap-2 text-sm sm:grid-cols-2">
          {comparison.arms.map((arm) => (
            <li key={arm.role} className="rounded-md border border-slate-200 p-3">
              <p className="font-medium">
                {arm.role === "baseline" ? "A · baseline" : "B · variant"}: {arm.label}
              </p>
              <p className="text-slate-600">
                {arm.run_number !== null ? `Run #${arm.run_number}` : "Imported"}
                {arm.model ? ` · model ${arm.model}` : ""}
              </p>
            </li>
          ))}
        </ul>
      </Card>
      <section aria-labelledby="shared-pairs" className="space-y-2">
        <h2 id="shared-pairs" className="text-base font-semibold">
          Pairs <span className="font-normal text-slate-500">(flipped verdicts first)</span>
        </h2>
        <Table caption="Pairs of the comparison, flipped verdicts first">
          <TableHeader columns={["Case", "A", "B", "Change", ...numeric(["Latency B − A", "Tokens B − A"])]} />
          <TableBody>
            {pairs.map((p) => (
              <TableRow key={p.index}>
                <TableCell className="max-w-64 break-words">
                  {p.name}
                  {p.repetition > 0 && <span className="text-xs text-slate-500"> · repetition {p.repetition + 1}</span>}
                </TableCell>
                <TableCell>{p.baseline ? <CaseStatusBadge status={p.baseline} /> : "—"}</TableCell>
                <TableCell>{p.variant ? <CaseStatusBadge status={p.variant} /> : "—"}</TableCell>
                <TableCell>
                  <VerdictChangeBadge change={p.verdict_change} />
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {p.latency_diff_ms === null ? "—" : signed(p.latency_diff_ms, " ms")}
                </TableCell>
                <TableCell className="text-right tabular-nums">{p.token_overhead === null ? "—" : signed(p.token_overhead)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {report.more_pairs && <p className="text-sm text-slate-600">Only the first {formatNumber(pairs.length)} pairs are shown.</p>}
      </section>
    </>
  );
}
