/**
 * `summarize(pairs)`: a comparison's `summary` as GET /api/v1/comparisons/{id} returns it,
 * from its pairs alone: per-arm counts, tokens and latency; location estimates with bootstrap
 * intervals for each diff; verdict changes; success rate; and the three tests. Pure and
 * deterministic (fixed bootstrap seed), so a comparison run live, built from two runs or
 * imported from a session document gets the same numbers from the same pairs.
 *
 * Which pairs feed which number:
 * - diffs and the latency/token tests use only pairs where both arms' agent calls succeeded
 *   (`both_successful`, the A/B engine's `success`): a failed call records 0 tokens and 0 ms (A/B engine),
 *   which would read as a huge "improvement". A judge error does not make an agent call fail, so
 *   such a pair's timing and tokens count;
 * - the pass/fail test uses pairs with a verdict on both sides (`verdict_change` ≠ `error`), so a
 *   judge error leaves its pair out of that test only;
 * - per-arm counts and token sums use every execution; mean tokens and latency use the
 *   executions whose agent call succeeded (same reason as the diffs).
 * Rates are percentages with one decimal, as a run's `pass_rate`; null when nothing counts.
 */
import { isSuccessful, pairDiffs, totalTokens, type ArmExecution, type ComparisonPair, type VerdictChange } from "./diffs";
import {
  bootstrapLocation,
  mcnemarExact,
  mean,
  quantile,
  wilcoxonSignedRank,
  type BootstrapOptions,
  type LocationEstimate,
  type McNemarResult,
  type WilcoxonResult,
} from "./statistics";

export interface ArmSummary {
  /** passed / (passed + failed + errors) × 100, one decimal; skipped executions are not counted. */
  pass_rate: number | null;
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  tokens: { prompt: number; completion: number; total: number; mean_total: number | null };
  latency_ms: { mean: number | null; p50: number | null; p95: number | null };
}

export interface ComparisonSummary {
  pairs: number;
  /** Pairs where both arms' agent calls succeeded: the n behind `diffs`, `tests.latency` and `tests.tokens`. */
  comparable_pairs: number;
  baseline: ArmSummary;
  variant: ArmSummary;
  diffs: {
    token_overhead: LocationEstimate;
    token_overhead_pct: LocationEstimate;
    latency_diff_ms: LocationEstimate;
    response_length_ratio: LocationEstimate;
  };
  verdict_changes: Record<VerdictChange, number>;
  /** Share of pairs where both arms' agent calls succeeded (the A/B engine's session `success_rate`), as a percentage. */
  success_rate: number | null;
  tests: {
    latency: WilcoxonResult;
    tokens: WilcoxonResult;
    pass_fail: McNemarResult;
  };
}

export function percent(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : null;
}

function summarizeArm(executions: readonly ArmExecution[]): ArmSummary {
  const count = (status: ArmExecution["status"]) => executions.filter((e) => e.status === status).length;
  const passed = count("passed");
  const failed = count("failed");
  const errors = count("error");
  const successful = executions.filter(isSuccessful);
  const latencies = successful.map((e) => e.latency_ms);
  const prompt = executions.reduce((sum, e) => sum + e.prompt_tokens, 0);
  const completion = executions.reduce((sum, e) => sum + e.completion_tokens, 0);
  return {
    pass_rate: percent(passed, passed + failed + errors),
    passed,
    failed,
    errors,
    skipped: count("skipped"),
    tokens: { prompt, completion, total: prompt + completion, mean_total: mean(successful.map(totalTokens)) },
    latency_ms: { mean: mean(latencies), p50: quantile(latencies, 0.5), p95: quantile(latencies, 0.95) },
  };
}

export function summarize(pairs: readonly ComparisonPair[], options: BootstrapOptions = {}): ComparisonSummary {
  const diffs = pairs.map(pairDiffs);
  const comparable = diffs.filter((d) => d.both_successful);
  const verdict_changes: Record<VerdictChange, number> = { same: 0, pass_to_fail: 0, fail_to_pass: 0, error: 0 };
  for (const d of diffs) verdict_changes[d.verdict_change]++;
  const column = (key: "token_overhead" | "token_overhead_pct" | "latency_diff_ms" | "response_length_ratio") =>
    comparable.map((d) => d[key]);

  return {
    pairs: pairs.length,
    comparable_pairs: comparable.length,
    baseline: summarizeArm(pairs.map((p) => p.baseline)),
    variant: summarizeArm(pairs.map((p) => p.variant)),
    diffs: {
      token_overhead: bootstrapLocation(column("token_overhead"), options),
      token_overhead_pct: bootstrapLocation(column("token_overhead_pct"), options),
      latency_diff_ms: bootstrapLocation(column("latency_diff_ms"), options),
      response_length_ratio: bootstrapLocation(column("response_length_ratio"), options),
    },
    verdict_changes,
    success_rate: percent(comparable.length, pairs.length),
    tests: {
      latency: wilcoxonSignedRank(column("latency_diff_ms")),
      tokens: wilcoxonSignedRank(column("token_overhead")),
      pass_fail: mcnemarExact(verdict_changes.pass_to_fail, verdict_changes.fail_to_pass),
    },
  };
}
