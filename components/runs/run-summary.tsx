import type { RunSummary } from "@/lib/runs/dto";
import { Card } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeader, TableRow } from "@/components/ui/table";
import { formatDuration, formatNumber, formatPercent, formatScore } from "./format";
import { Stat as Item } from "@/components/ui/stat";
import { CostStats } from "./cost-stats";
import type { CostBreakdown } from "@/lib/runs/cost";

/** A fraction 0..1 as a whole percent ("72%"). */
const percentOf = (fraction: number) => `${Math.round(fraction * 100)}%`;

/** "72% (95% CI 61–83%)": pass@1 with its interval, when the summary has them. */
export function passAt1Text(summary: Pick<RunSummary, "pass_at_1" | "pass_at_1_ci95">): string | null {
  if (summary.pass_at_1 === null || summary.pass_at_1 === undefined) return null;
  const ci = summary.pass_at_1_ci95;
  return ci ? `${percentOf(summary.pass_at_1)} (95% CI ${Math.round(ci[0] * 100)}–${percentOf(ci[1])})` : percentOf(summary.pass_at_1);
}

/**
 * The trial figures of a summary (absent from summaries stored before trials existed: nothing then):
 * pass@1 with its interval for every run, and with several trials pass@k, pass^k and the flaky count.
 */
function TrialStats({ summary }: { summary: RunSummary }) {
  const passAt1 = passAt1Text(summary);
  const several = (summary.trials ?? 1) > 1;
  const k = summary.trials ?? 1;
  return (
    <>
      {passAt1 && <Item label="pass@1" value={passAt1} testId="run-summary-pass-at-1" title={summary.pass_at_1_ci95_method ?? undefined} />}
      {several && (
        <>
          <Item label={`pass@${k} (any of ${k} trials passed)`} value={summary.pass_at_k == null ? "—" : percentOf(summary.pass_at_k)} />
          <Item
            label={`pass^${k} (all ${k} trials passed)`}
            value={summary.pass_all_k == null ? "—" : percentOf(summary.pass_all_k)}
            testId="run-summary-pass-all-k"
          />
          <Item label="Flaky cases" value={formatNumber(summary.flaky_cases)} testId="run-summary-flaky" />
        </>
      )}
    </>
  );
}

/** Human review's figures of a run (they change after it ended, as reviewers label its results). */
export type RunReviewFigures = { pass_rate_reviewed: number; reviewed_cases: number; overturned_cases: number };

/** "2 reviewed, 1 overturned". */
const reviewedNote = (r: RunReviewFigures) => `${formatNumber(r.reviewed_cases)} reviewed, ${formatNumber(r.overturned_cases)} overturned`;

/**
 * Metric averages, execution statistics, totals and trial figures of a finished run (run.summary);
 * once people reviewed some of its results, the pass rate over their verdicts beside the judge's.
 */
export function RunSummaryCard({ summary, review, cost }: { summary: RunSummary; review?: RunReviewFigures; cost?: CostBreakdown | null }) {
  const metrics = Object.keys(summary.metrics_evaluated ?? {}).sort();
  const stats = summary.execution_stats;
  const errorsByType = Object.entries(stats?.errors_by_type ?? {});
  const byPurpose = Object.entries(stats?.by_purpose ?? {});
  return (
    <Card className="space-y-5 p-5">
      <h2 className="text-base font-semibold">Summary</h2>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3 lg:grid-cols-6">
        {review && review.reviewed_cases > 0 && (
          <Item
            label={`Reviewed pass rate (${reviewedNote(review)})`}
            value={formatPercent(review.pass_rate_reviewed)}
            testId="run-summary-reviewed-pass-rate"
            title="The pass rate with each reviewed result's human verdict in place of the judge's"
          />
        )}
        <TrialStats summary={summary} />
        {summary.executed !== summary.total_tests && (
          <Item label={`Passed of all ${formatNumber(summary.total_tests)} results`} value={formatPercent(summary.pass_rate)} />
        )}
        {summary.weighted_pass_rate !== undefined && (
          <Item label={`Weighted by difficulty (hard × ${summary.hard_weight ?? 2})`} value={formatPercent(summary.weighted_pass_rate)} />
        )}
        <Item
          label="Results (passed / not met / errors / skipped)"
          value={`${formatNumber(summary.total_tests)}: ${summary.passed} / ${summary.not_met} / ${summary.errors} / ${summary.skipped}`}
        />
        {/* The pass rate, the duration and the token total are the progress card's: each figure is shown once. */}
        <Item label="Average latency" value={formatDuration(summary.average_latency_ms)} hint="the agent's answer time, per case" />
        <Item
          label="Tokens, prompt / completion"
          value={`${formatNumber(summary.prompt_tokens)} / ${formatNumber(summary.completion_tokens)}`}
        />
        {cost !== undefined && <CostStats cost={cost} testId="run-summary-cost" />}
      </dl>

      <section aria-labelledby="summary-metrics">
        <h3 id="summary-metrics" className="mb-2 text-sm font-semibold text-slate-800">
          Metrics
        </h3>
        {metrics.length === 0 ? (
          <p className="text-sm text-slate-500">No metrics are configured on this suite.</p>
        ) : (
          <Table variant="plain" density="compact">
            <TableHeader columns={["Metric", "Average score", "Pass rate", "Evaluated"]} />
            <TableBody>
              {metrics.map((m) => (
                <TableRow key={m}>
                  <TableCell className="font-medium">{m}</TableCell>
                  <TableCell className="tabular-nums">{formatScore(summary.average_scores?.[m])}</TableCell>
                  <TableCell className="tabular-nums">{formatPercent(summary.metric_pass_rates?.[m])}</TableCell>
                  <TableCell className="tabular-nums">{formatNumber(summary.metrics_evaluated?.[m])}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </section>

      {stats && (
        <section aria-labelledby="summary-execution">
          <h3 id="summary-execution" className="mb-2 text-sm font-semibold text-slate-800">
            Execution
          </h3>
          <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3 lg:grid-cols-7">
            <Item label="Model calls" value={formatNumber(stats.total_invocations)} />
            <Item label="Succeeded" value={formatNumber(stats.successful_invocations)} />
            <Item label="Failed calls" value={formatNumber(stats.failed_invocations)} />
            <Item label="Retries" value={formatNumber(stats.retries)} />
            {summary.retry_count !== undefined && <Item label="Agent retries" value={formatNumber(summary.retry_count)} />}
            {summary.evaluator_retry_count !== undefined && (
              <Item label="Evaluator retries" value={formatNumber(summary.evaluator_retry_count)} />
            )}
            <Item label="Cached" value={formatNumber(stats.cached_calls)} />
          </dl>
          <div className="mt-3 grid gap-4 sm:grid-cols-2">
            <div>
              <h4 className="text-xs font-medium text-slate-500 uppercase">Case errors by type</h4>
              {errorsByType.length === 0 ? (
                <p className="mt-1 text-sm text-slate-500">None</p>
              ) : (
                <ul className="mt-1 space-y-0.5 text-sm">
                  {errorsByType.map(([type, n]) => (
                    <li key={type}>
                      <span className="font-medium">{type}</span>: {formatNumber(n)}
                    </li>
                  ))}
                </ul>
              )}
            </div>
            {byPurpose.length > 0 && (
              <div>
                <h4 className="text-xs font-medium text-slate-500 uppercase">Calls by purpose</h4>
                <ul className="mt-1 space-y-0.5 text-sm">
                  {byPurpose.map(([purpose, p]) => (
                    <li key={purpose}>
                      <span className="font-medium">{purpose}</span>: {formatNumber(p.invocations)} calls, {formatNumber(p.failed)} failed,{" "}
                      {formatNumber(p.retries)} retries
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </div>
        </section>
      )}
    </Card>
  );
}
