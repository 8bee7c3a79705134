import type { ComparisonSummaryDto } from "@/lib/comparisons/dto";
import { comparisonVerdict, formatP } from "@/lib/comparisons/verdict";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { costTone, formatInterval, formatMs, formatRate, signed } from "./format";

/**
 * The comparison's headline: the one-sentence verdict and four cards (pass rate A vs B with
 * flips, median latency diff with its interval and p-value, token overhead % with its interval,
 * success rate). Every number is variant − baseline.
 */
export function ComparisonHeadline({ summary, live }: { summary: ComparisonSummaryDto | null; live: boolean }) {
  if (!summary || summary.pairs === 0) {
    return (
      <Card className="p-5">
        <p className="text-sm text-slate-600" data-testid="comparison-verdict">
          {live ? "The headline numbers appear as pairs complete." : "No pair completed, so there is nothing to compare."}
        </p>
      </Card>
    );
  }
  const verdict = summary.verdict || comparisonVerdict(summary);
  const { diffs, tests, verdict_changes: flips } = summary;
  const latency = diffs.latency_diff_ms;
  const tokens = diffs.token_overhead_pct;

  return (
    <section aria-label="Headline" className="space-y-3">
      <Card className="border-indigo-200 bg-indigo-50/60 p-4">
        <p className="text-xs font-medium tracking-wide text-indigo-700 uppercase">
          Verdict{live ? " so far" : ""} · {summary.comparable_pairs} comparable of {summary.pairs} pairs
        </p>
        <p className="mt-1 text-base font-medium text-slate-900" data-testid="comparison-verdict">
          {verdict}
        </p>
      </Card>
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        <HeadlineCard
          testId="headline-pass-rate"
          title="Pass rate A → B"
          value={
            <>
              {formatRate(summary.baseline.pass_rate)} → {formatRate(summary.variant.pass_rate)}
            </>
          }
          lines={[
            `${flips.fail_to_pass} fail → pass · ${flips.pass_to_fail} pass → fail`,
            tests.pass_fail.p_value === null ? "No flips to test" : `McNemar exact ${formatP(tests.pass_fail.p_value)}`,
          ]}
        />
        <HeadlineCard
          testId="headline-latency"
          title="Median latency diff"
          value={<span className={costTone(latency.median)}>{signed(latency.median, " ms")}</span>}
          lines={[
            formatInterval(latency.median_ci95, " ms"),
            wilcoxon(tests.latency.p_value),
            `p50 A ${formatMs(summary.baseline.latency_ms.p50)} · B ${formatMs(summary.variant.latency_ms.p50)}`,
          ]}
        />
        <HeadlineCard
          testId="headline-tokens"
          title="Token overhead"
          value={<span className={costTone(tokens.mean)}>{signed(tokens.mean, " %")}</span>}
          lines={[
            formatInterval(tokens.ci95, " %"),
            wilcoxon(tests.tokens.p_value),
            `Mean tokens A ${fmt(summary.baseline.tokens.mean_total)} · B ${fmt(summary.variant.tokens.mean_total)}`,
          ]}
        />
        <HeadlineCard
          testId="headline-success"
          title="Success rate"
          value={formatRate(summary.success_rate)}
          lines={[
            `${summary.comparable_pairs} of ${summary.pairs} pairs: both agents answered`,
            ...leftOut(summary.pairs - summary.comparable_pairs, flips.error),
          ]}
        />
      </div>
    </section>
  );
}

/** Pairs left out: an agent error or skip leaves a pair out of the diffs; a judge error only out of the pass/fail test. */
function leftOut(agentErrors: number, withoutVerdict: number): string[] {
  const unjudged = withoutVerdict - agentErrors;
  const lines = [];
  if (agentErrors > 0) lines.push(`${agentErrors} with an agent error or skip (left out of the diffs)`);
  if (unjudged > 0) lines.push(`${unjudged} without a verdict (judge error; left out of the pass rate test only)`);
  return lines.length ? lines : ["No errors"];
}

/** The Wilcoxon signed-rank line of a diff card; no p-value when every pair's difference is zero. */
const wilcoxon = (p: number | null) => (p === null ? "No test (no non-zero difference)" : `Wilcoxon ${formatP(p)}`);

const fmt = (n: number | null) => (n === null ? "—" : Math.round(n).toLocaleString("en-US"));

function HeadlineCard({ title, value, lines, testId }: { title: string; value: React.ReactNode; lines: string[]; testId: string }) {
  return (
    <Card className="p-4" data-testid={testId}>
      <h3 className="text-xs font-medium tracking-wide text-slate-500 uppercase">{title}</h3>
      <p className={cn("mt-1 text-2xl font-semibold text-slate-900 tabular-nums")}>{value}</p>
      <ul className="mt-2 space-y-0.5 text-xs text-slate-600">
        {lines.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
    </Card>
  );
}
