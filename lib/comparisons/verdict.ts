/**
 * The one-sentence, plain-language verdict a comparison page leads with, from its summary:
 * "Variant is 212 ms slower (95 % CI 198–230, p < 0.001) and uses 14 % more tokens; pass rate unchanged."
 *
 * Rules (each a claim the numbers must support, so a QA team can repeat the sentence):
 * - A difference is named ("slower", "more tokens", "pass rate fell") only when it is significant:
 *   its test's p < 0.05 AND its 95 % bootstrap interval excludes 0. Anything else reads
 *   "no significant … difference" with its p-value, or "no … difference" when every pair's
 *   difference was exactly zero (the test has nothing to rank: p is null).
 * - Latency is reported as the median per-pair difference with the median's interval (robust to
 *   the odd slow call) and the Wilcoxon p-value; tokens as the mean per-pair token_overhead_pct
 *   with its interval and the Wilcoxon p-value on token_overhead; pass rate by McNemar's exact test.
 * - Fewer than 6 comparable pairs: no verdict, only the raw medians. With n ≤ 5 the exact
 *   two-sided Wilcoxon p-value cannot go below 2/32 = 0.0625, so nothing could be significant.
 * - p-values: "p < 0.001"; below 0.01 three decimals ("p = 0.004"); else two ("p = 0.03"),
 *   except that a p just under 0.05 is cut, not rounded, to three decimals so it never reads 0.05.
 * - Pairs with an error or a skipped arm are left out of every test and counted in the sentence.
 */
import type { Interval } from "./statistics";
import type { ComparisonSummary } from "./summary";

export const SIGNIFICANCE_LEVEL = 0.05;
export const MIN_PAIRS_FOR_VERDICT = 6;

export function formatP(p: number): string {
  if (p < 0.001) return "p < 0.001";
  if (p < 0.01) return `p = ${p.toFixed(3)}`;
  if (p < SIGNIFICANCE_LEVEL && p >= 0.045) return `p = ${(Math.floor(p * 1000) / 1000).toFixed(3)}`;
  if (p >= 0.995) return "p = 1";
  return `p = ${p.toFixed(2)}`;
}

/** A magnitude for the sentence: whole units from 10 up, one decimal below (so 0.4 % is not "0 %"). */
function magnitude(x: number): string {
  const abs = Math.abs(x);
  return abs >= 10 ? String(Math.round(abs)) : String(Math.round(abs * 10) / 10);
}

function signed(x: number): string {
  return `${x < 0 ? "-" : "+"}${magnitude(x)}`;
}

function excludesZero(ci: Interval | null): ci is Interval {
  return ci !== null && (ci[0] > 0 || ci[1] < 0);
}

function significant(p: number | null, ci: Interval | null): boolean {
  return p !== null && p < SIGNIFICANCE_LEVEL && excludesZero(ci);
}

function withP(p: number | null): string {
  return p === null ? "" : ` (${formatP(p)})`;
}

/** No test result (p null) with comparable pairs means every difference was exactly zero. */
function noDifference(kind: string, p: number | null): string {
  return p === null ? `no ${kind} difference` : `no significant ${kind} difference (${formatP(p)})`;
}

function passRateClause(s: ComparisonSummary): string {
  const before = s.baseline.pass_rate;
  const after = s.variant.pass_rate;
  if (before === null || after === null) return "no pass rate to compare";
  const { p_value: p, b, c } = s.tests.pass_fail;
  if (p !== null && p < SIGNIFICANCE_LEVEL) return `pass rate ${b > c ? "fell" : "rose"} from ${before} % to ${after} % (${formatP(p)})`;
  if (before === after) return "pass rate unchanged";
  return `pass rate ${before} % vs ${after} %, not a significant change${withP(p)}`;
}

/**
 * The pairs some figure leaves out: those whose agent call failed in an arm (or that were
 * skipped) are out of everything; those where the agents answered but a verdict is missing (a
 * judge error) are out of the pass/fail comparison only.
 */
function leftOutClause(s: ComparisonSummary): string {
  const agentLeft = s.pairs - s.comparable_pairs;
  const unjudged = s.verdict_changes.error - agentLeft;
  const parts = [];
  if (agentLeft > 0) parts.push(`; ${agentLeft} of ${s.pairs} pairs left out (error or skipped)`);
  if (unjudged > 0) parts.push(`; ${unjudged} of ${s.pairs} pairs without a verdict (judge error) left out of the pass rate test`);
  return parts.join("");
}

export function comparisonVerdict(s: ComparisonSummary): string {
  if (s.pairs === 0) return "No pairs have completed yet.";
  const n = s.comparable_pairs;
  if (n === 0) return `No pair succeeded in both arms yet, so there is nothing to compare${leftOutClause(s)}.`;

  const latency = s.diffs.latency_diff_ms;
  const tokens = s.diffs.token_overhead_pct;
  const tail = `; ${passRateClause(s)}${leftOutClause(s)}.`;

  if (n < MIN_PAIRS_FOR_VERDICT) {
    return `Too few comparable pairs (n = ${n}) for a verdict: median latency ${signed(latency.median!)} ms, tokens ${signed(tokens.mean!)} %${tail}`;
  }

  const latencyP = s.tests.latency.p_value;
  const tokensP = s.tests.tokens.p_value;
  const latencySignificant = significant(latencyP, latency.median_ci95);
  const tokensSignificant = significant(tokensP, tokens.ci95);

  if (!latencySignificant && !tokensSignificant) {
    return `No significant difference in latency${withP(latencyP)} or tokens${withP(tokensP)}${tail}`;
  }

  const tokenPhrase = `uses ${magnitude(tokens.mean!)} % ${tokens.mean! > 0 ? "more" : "fewer"} tokens`;
  if (!latencySignificant) return `Variant ${tokenPhrase} with ${noDifference("latency", latencyP)}${tail}`;

  const [lo, hi] = latency.median_ci95!.map(Math.abs).sort((x, y) => x - y) as [number, number];
  const latencyPhrase = `is ${magnitude(latency.median!)} ms ${latency.median! > 0 ? "slower" : "faster"} (95 % CI ${magnitude(lo)}–${magnitude(hi)}, ${formatP(latencyP!)})`;
  if (!tokensSignificant) return `Variant ${latencyPhrase} with ${noDifference("token", tokensP)}${tail}`;
  return `Variant ${latencyPhrase} and ${tokenPhrase}${tail}`;
}
