/**
 * The case pass rule (the execution model).
 *
 * - `error` when the conversation errored (agent, simulator, …), when an evaluator failed
 *   (outcome judge, an llm_judge or semantic_similarity check: a judge error), or when a metric
 *   with `fail_on_error` could not be evaluated. Errors are not agent failures.
 * - otherwise `passed` iff checks are satisfied per mode (no checks → satisfied), tool calls
 *   matched (or no expectations), every outcome met, and every enabled metric that was evaluated
 *   without error passed (metric errors without fail_on_error are ignored);
 * - otherwise `failed`, with a short human reason.
 * `skipped` is decided by the executor (case not runnable, run cancelled).
 */
import { checksSatisfied } from "./checks";
import type { CaseEvaluationStatus, CheckResult, ConversationError, MetricResult, OutcomeResult, ToolCallResults } from "./types";

export type PassRuleInput = {
  conversationError?: ConversationError | null;
  checkResults: readonly CheckResult[];
  mode: "all" | "any";
  toolCallResults: ToolCallResults | null;
  outcomeResults: readonly OutcomeResult[];
  /** Each metric result with its config's fail_on_error. */
  metrics: readonly { result: MetricResult; fail_on_error: boolean }[];
  /** The outcome judge's error, if any. */
  outcomeJudgeError?: string | null;
};

/** `failure_reasons` is empty unless `status` is failed: an error is never a failure reason. */
export type PassDecision = { status: CaseEvaluationStatus; reason: string | null; failure_reasons: string[]; judge_error: string | null };

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Whole numbers as they are, others with two decimals (scores on 1..scale are whole). */
const formatNumber = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(2));

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Evaluator errors (judge error text) collected from the outcome judge, checks and fail_on_error metrics. */
export function collectJudgeErrors(input: PassRuleInput): string[] {
  const errors: string[] = [];
  if (input.outcomeJudgeError) errors.push(`Outcome judge: ${input.outcomeJudgeError}`);
  for (const c of input.checkResults) {
    if (c.details.error) errors.push(`Check ${c.check_index + 1} (${c.check_type}): ${c.details.error}`);
  }
  for (const m of input.metrics) {
    if (m.fail_on_error && m.result.error) errors.push(`Metric ${m.result.metric_name}: ${m.result.error}`);
  }
  return errors;
}

/** Why the case did not pass, one entry per unmet expectation (errors aside). */
export function failureReasons(input: Omit<PassRuleInput, "conversationError" | "outcomeJudgeError">): string[] {
  const reasons: string[] = [];
  if (!checksSatisfied(input.checkResults, input.mode)) {
    const failed = input.checkResults.filter((c) => !c.passed).length;
    reasons.push(
      input.mode === "any"
        ? `none of ${plural(input.checkResults.length, "check")} passed`
        : `${failed} of ${plural(input.checkResults.length, "check")} failed`,
    );
  }
  const tools = input.toolCallResults;
  if (tools && !tools.passed) {
    const missing = new Map<string, number>();
    for (const m of tools.missing) missing.set(m.tool, (missing.get(m.tool) ?? 0) + 1);
    for (const [tool, n] of missing) reasons.push(`missing tool call ${tool}${n > 1 ? ` (×${n})` : ""}`);
    const forbidden = [...new Set(tools.forbidden_called.map((f) => f.tool))];
    for (const f of forbidden) reasons.push(`forbidden tool called: ${f}`);
  }
  const notMet = input.outcomeResults.filter((o) => !o.passed).length;
  if (notMet > 0) reasons.push(`${notMet} of ${plural(input.outcomeResults.length, "outcome")} not met`);
  for (const { result } of input.metrics) {
    if (!result.error && result.passed === false) {
      const score = result.score === null ? "?" : formatNumber(result.score);
      const threshold = result.threshold === null ? "?" : formatNumber(result.threshold);
      const scale = result.scale && "normalized_score" in result ? ` on 1–${result.scale}` : "";
      reasons.push(`metric ${result.metric_name} below threshold (${score} < ${threshold}${scale})`);
    }
  }
  return reasons;
}

export function decideStatus(input: PassRuleInput): PassDecision {
  const judgeErrors = collectJudgeErrors(input);
  const judge_error = judgeErrors.length > 0 ? judgeErrors.join("; ") : null;
  if (input.conversationError) {
    return {
      status: "error",
      reason: `${input.conversationError.type} error: ${input.conversationError.message}`,
      failure_reasons: [],
      judge_error,
    };
  }
  if (judge_error) return { status: "error", reason: `Evaluation error: ${judge_error}`, failure_reasons: [], judge_error };
  const reasons = failureReasons(input);
  if (reasons.length === 0) return { status: "passed", reason: null, failure_reasons: [], judge_error: null };
  const text = reasons.join("; ");
  return { status: "failed", reason: capitalise(text), failure_reasons: reasons.map(capitalise), judge_error: null };
}
