/**
 * Per-execution and per-pair numbers of an A/B comparison, exactly as the A/B engine defines them
 * (its `AgentResponse` and `ABTestResult` computed properties; the A/B engine's "docstratum" arm is
 * Assay's variant). Every difference is variant − baseline: negative means the variant used
 * less (fewer tokens, less time). Pure functions, no I/O: the engine, the compare-two-runs path
 * and the session import all derive their pair fields here, so the three can never disagree.
 */

/** Assay's case verdicts that can end an execution (pending/running never reach a pair). */
export type ArmStatus = "passed" | "failed" | "error" | "skipped";

/**
 * One arm's execution of one case: the A/B engine's AgentResponse fields the diffs need, plus Assay's
 * verdict. `error` is the agent call's only (the A/B engine's `success` is `error is None`): a case
 * whose agent answered but whose judge failed has status `error`, no `error`, and the judge's
 * message in `evaluation_error`.
 */
export interface ArmExecution {
  response: string;
  prompt_tokens: number;
  completion_tokens: number;
  latency_ms: number;
  status: ArmStatus;
  /** The A/B engine's `error`: null when the agent call succeeded. */
  error: string | null;
  /** Why the verdict is missing although the agent answered (judge or fail_on_error metric error). */
  evaluation_error?: string | null;
}

/** A baseline and a variant execution of the same case and repetition. */
export interface ComparisonPair {
  baseline: ArmExecution;
  variant: ArmExecution;
}

export type VerdictChange = "same" | "pass_to_fail" | "fail_to_pass" | "error";

export interface PairDiffs {
  token_overhead: number;
  token_overhead_pct: number;
  latency_diff_ms: number;
  latency_improvement_pct: number;
  response_length_ratio: number;
  both_successful: boolean;
  verdict_change: VerdictChange;
}

/** Spec: "Sum of prompt and completion tokens." — `prompt_tokens + completion_tokens`. */
export function totalTokens(e: ArmExecution): number {
  return e.prompt_tokens + e.completion_tokens;
}

/**
 * Spec: "Token generation rate (tokens/millisecond)." — `if latency_ms == 0: return 0.0`,
 * else `completion_tokens / latency_ms` (completion tokens only, not the total).
 */
export function tokensPerMs(e: ArmExecution): number {
  if (e.latency_ms === 0) return 0;
  return e.completion_tokens / e.latency_ms;
}

/**
 * Spec: "Was execution successful (no error)." — `error is None`: the agent call succeeded, so
 * its latency and tokens count, whatever the judge made of the answer. A skipped case never
 * called the agent, so it did not succeed (its status is checked too, whatever its `error`).
 */
export function isSuccessful(e: ArmExecution): boolean {
  return e.error === null && e.status !== "skipped";
}

/** The execution has a verdict (passed or failed): what the pass/fail comparison needs. */
export function hasVerdict(e: ArmExecution): boolean {
  return e.status === "passed" || e.status === "failed";
}

/**
 * Length in characters as Python's `len(str)` counts them (Unicode code points), so the ratio
 * matches the A/B engine's for text outside the Basic Multilingual Plane (emoji) too; JavaScript's
 * `.length` would count UTF-16 code units.
 */
function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Assay's verdict change of a pair. `error` whenever either arm has no verdict (an agent error,
 * a judge error or a skipped case): there is no pair of verdicts to compare, and such pairs are
 * left out of the pass/fail test. Otherwise `same`, `pass_to_fail` (baseline passed, variant
 * failed: a regression) or `fail_to_pass` (an improvement).
 */
export function verdictChange(pair: ComparisonPair): VerdictChange {
  const { baseline, variant } = pair;
  if (!hasVerdict(baseline) || !hasVerdict(variant) || baseline.error !== null || variant.error !== null) return "error";
  if (baseline.status === variant.status) return "same";
  return baseline.status === "passed" ? "pass_to_fail" : "fail_to_pass";
}

export function pairDiffs(pair: ComparisonPair): PairDiffs {
  const { baseline, variant } = pair;
  const baselineTotal = totalTokens(baseline);

  // Spec: "Extra tokens required by DocStratum vs baseline" — `docstratum.total_tokens - baseline.total_tokens`.
  const token_overhead = totalTokens(variant) - baselineTotal;

  // Spec: "Percentage increase in tokens" — `if baseline.total_tokens == 0: return 0.0`,
  // else `(token_overhead / baseline.total_tokens) * 100`.
  const token_overhead_pct = baselineTotal === 0 ? 0 : (token_overhead / baselineTotal) * 100;

  // Spec: "Latency difference: DocStratum - Baseline" — `docstratum.latency_ms - baseline.latency_ms`.
  const latency_diff_ms = variant.latency_ms - baseline.latency_ms;

  // Spec: "Percentage improvement in latency" — `if baseline.latency_ms == 0: return 0.0`, else
  // `(latency_diff_ms / baseline.latency_ms) * 100`. Despite the name, positive = the variant is
  // slower (the sign follows latency_diff_ms); kept as the A/B engine computes it.
  const latency_improvement_pct = baseline.latency_ms === 0 ? 0 : (latency_diff_ms / baseline.latency_ms) * 100;

  // Spec: "Ratio of DocStratum response length to baseline length" — `if len(baseline.response) == 0:
  // return 1.0`, else `len(docstratum.response) / len(baseline.response)`.
  const baselineLength = codePointLength(baseline.response);
  const response_length_ratio = baselineLength === 0 ? 1 : codePointLength(variant.response) / baselineLength;

  // Spec: "Did both agents complete without errors" — `baseline.success and docstratum.success`.
  const both_successful = isSuccessful(baseline) && isSuccessful(variant);

  return {
    token_overhead,
    token_overhead_pct,
    latency_diff_ms,
    latency_improvement_pct,
    response_length_ratio,
    both_successful,
    verdict_change: verdictChange(pair),
  };
}
