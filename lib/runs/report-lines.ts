/**
 * The Markdown report's summary lines that read a run's later figures: pass@1 and the trials, and
 * human review; and the one-line texts several formats write (a shortened text, a processed file).
 * Pure (the run and its summary in, one line out), so ./report.ts only assembles.
 */
import type { RunDto, RunSummary } from "@/lib/runs/dto";
import type { ProcessedFileInput } from "@/lib/files/types";

/** A text on one line (white space folded), shortened to `max` characters. */
export const oneLine = (s: string | null | undefined, max = 500) => {
  const t = (s ?? "").replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
};

/** A processed file's name (the stored file's, else its path or URL). */
export function fileLabel(f: ProcessedFileInput): string {
  const name = f.metadata.name;
  return typeof name === "string" && name ? name : (f.original.path ?? f.original.url ?? "file");
}

/** "invoice.pdf (pdf, 120 ms)" or "invoice.pdf (pdf): <error>". */
export function fileLine(f: ProcessedFileInput): string {
  return f.error ? `${fileLabel(f)} (${f.original.type}): ${f.error}` : `${fileLabel(f)} (${f.original.type}, ${f.processing_time_ms} ms)`;
}

/** The trial figures of a run summary (fractions 0..1; absent from summaries stored before trials). */
export type TrialFigures = Partial<
  Pick<
    RunSummary,
    "trials" | "judged_cases" | "pass_at_1" | "pass_at_1_ci95" | "pass_at_k" | "pass_all_k" | "flaky_cases" | "error_only_cases"
  >
>;

const percent = (f: number | null | undefined) => (typeof f === "number" ? `${(f * 100).toFixed(1)}%` : "—");
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The report's trial line: "**Pass@1**: 75.0% (95% CI 50.0–100.0%) over 4 judged cases", and with
 * several trials per case "**Trials**: 3 per case — pass@1 …, pass@3 …, pass^3 …, 1 flaky case".
 */
export function trialFiguresLine(s: TrialFigures, runTrials: number): string | null {
  if (s.pass_at_1 === undefined) return null;
  const ci = s.pass_at_1_ci95 ? ` (95% CI ${(s.pass_at_1_ci95[0] * 100).toFixed(1)}–${(s.pass_at_1_ci95[1] * 100).toFixed(1)}%)` : "";
  const judged = plural(s.judged_cases ?? 0, "judged case", "judged cases");
  const k = s.trials ?? runTrials;
  if (k <= 1) return `**Pass@1**: ${percent(s.pass_at_1)}${ci} over ${judged}`;
  const errorOnly = s.error_only_cases ? `, ${plural(s.error_only_cases, "case", "cases")} with only errors` : "";
  return (
    `**Trials**: ${k} per case — pass@1 ${percent(s.pass_at_1)}${ci} over ${judged}, pass@${k} ${percent(s.pass_at_k)}, ` +
    `pass^${k} ${percent(s.pass_all_k)}, ${plural(s.flaky_cases ?? 0, "flaky case", "flaky cases")}${errorOnly}`
  );
}

/** "**Human review**: 2 results reviewed, 1 overturned — reviewed pass rate 83.3% (judge: 66.7%)"; null before any review. */
export function humanReviewLine(
  run: Pick<RunDto, "reviewed_cases" | "overturned_cases" | "pass_rate_reviewed" | "pass_rate">,
): string | null {
  if (run.reviewed_cases === 0) return null;
  return (
    `**Human review**: ${plural(run.reviewed_cases, "result", "results")} reviewed, ${run.overturned_cases} overturned — ` +
    `reviewed pass rate ${run.pass_rate_reviewed}% (judge: ${run.pass_rate}%)`
  );
}
