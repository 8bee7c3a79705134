/**
 * Why a case result did not pass, in one line for the run page's row: the first failing check
 * with its detail (the missing phrases, the similarity against its threshold, the judge's
 * reason), else the first outcome the judge found not met, else the pass rule's own reason
 * (a tool call, a metric), or, for an error, what kind of error and its message. The case view
 * shows every detail; a row shows the one that explains the verdict, so a QA lead reads why
 * without opening the case. Pure: the row's SQL reads only the first failing check and outcome.
 */

/** The first failing check as the row's SQL reads it (`checkResults` element, details trimmed). */
export type FailedCheckSummary = {
  check_type?: string;
  missing_phrases?: string[] | null;
  similarity_score?: number | null;
  threshold?: number | null;
  reasoning?: string | null;
};

/** The first outcome not met (`outcomeResults` element: its label and the judge's reasoning). */
export type FailedOutcomeSummary = { label?: string | null; reasoning?: string | null };

export type FailureReasonInput = {
  status: string;
  error_type: string | null;
  error_message: string | null;
  failure_reasons: string[];
  failed_check: FailedCheckSummary | null;
  failed_outcome: FailedOutcomeSummary | null;
};

/** One line and how many further reasons the case has (shown as "+N more"). */
export type FailureReason = { text: string; more: number };

/** The longest line a row shows; the case view has the rest. */
export const REASON_MAX_CHARS = 200;

/** Error kinds in the user's words (errors are not agent failures: a judge error says so). */
const ERROR_TITLES: Record<string, string> = {
  agent: "Agent error",
  timeout: "Agent timeout",
  simulator: "Simulator error",
  judge: "Judge error",
  config: "Configuration error",
  cancelled: "Cancelled",
  worker_lost: "Worker lost",
  internal: "Internal error",
  persist: "Could not be saved",
};

/** The first line of `text`, whitespace collapsed, cut at `max` characters with an ellipsis. */
export function oneLine(text: string, max = REASON_MAX_CHARS): string {
  const line = (text.split(/\r?\n/).find((l) => l.trim() !== "") ?? "").replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

const score = (n: number | null | undefined) => (typeof n === "number" && Number.isFinite(n) ? n.toFixed(2) : "?");
const quoted = (phrases: string[]) => phrases.map((p) => `“${p}”`).join(", ");

/** A failing check in words, or null when it carries nothing worth more than the pass rule's count. */
export function checkReason(check: FailedCheckSummary): string | null {
  switch (check.check_type) {
    case "contains_phrases": {
      const missing = (check.missing_phrases ?? []).filter((p) => typeof p === "string");
      return missing.length > 0 ? `Missing ${missing.length === 1 ? "phrase" : "phrases"} ${quoted(missing)}` : "Contains phrases: failed";
    }
    case "semantic_similarity":
      return `Similarity ${score(check.similarity_score)} < threshold ${score(check.threshold)}`;
    case "llm_judge":
      return check.reasoning?.trim() ? `Judge: ${oneLine(check.reasoning)}` : "Judge said fail";
    default:
      return null;
  }
}

/** An outcome the judge found not met: its label and the judge's one-line reason. */
export function outcomeReason(outcome: FailedOutcomeSummary): string | null {
  const label = outcome.label?.trim();
  if (!label) return null;
  const why = outcome.reasoning?.trim() ? ` — ${oneLine(outcome.reasoning)}` : "";
  return `Outcome not met: ${oneLine(label, 80)}${why}`;
}

/** Why a failed or errored result did not pass; null for any other status. */
export function failureReason(r: FailureReasonInput): FailureReason | null {
  if (r.status === "error") {
    const title = r.error_type ? (ERROR_TITLES[r.error_type] ?? `${r.error_type} error`) : "Error";
    return { text: oneLine(r.error_message ? `${title}: ${r.error_message}` : title), more: 0 };
  }
  if (r.status !== "failed") return null;
  const more = Math.max(0, r.failure_reasons.length - 1);
  const detailed = (r.failed_check && checkReason(r.failed_check)) ?? (r.failed_outcome && outcomeReason(r.failed_outcome));
  if (detailed) return { text: oneLine(detailed), more };
  const first = r.failure_reasons[0];
  return { text: first ? oneLine(first) : "Failed (no reason was recorded)", more };
}
