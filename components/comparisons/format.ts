import type { ComparisonStatus, ComparisonOrdering, ComparisonSource } from "@/lib/comparisons/schemas";
import type { VerdictChange } from "@/lib/comparisons/diffs";
import type { Interval } from "@/lib/comparisons/statistics";
import { RUN_STATUS_LABELS, RUN_STATUS_TONES } from "@/components/runs/status-badges";

type Tone = (typeof RUN_STATUS_TONES)[keyof typeof RUN_STATUS_TONES];

/** Small formatters of the comparison views (pure, client- and server-safe). Signs: variant − baseline. */

export const isActiveComparison = (status: ComparisonStatus | undefined) => status === "pending" || status === "running";

/** Named and coloured like a run: it goes through the same lifecycle. */
export const COMPARISON_STATUS_LABELS: Record<ComparisonStatus, string> = RUN_STATUS_LABELS;

export const COMPARISON_STATUS_TONES: Record<ComparisonStatus, Tone> = RUN_STATUS_TONES;

export const ORDERING_LABELS: Record<ComparisonOrdering, string> = {
  sequential: "Sequential (baseline, reset window, variant)",
  randomized: "Randomized order per case",
  concurrent: "Concurrent (both arms at once)",
};

export const SOURCE_LABELS: Record<ComparisonSource, string> = {
  executed: "Executed",
  runs: "Two runs compared",
  imported: "Imported session",
};

export const VERDICT_CHANGE_LABELS: Record<VerdictChange, string> = {
  same: "Same verdict",
  pass_to_fail: "Pass → fail",
  fail_to_pass: "Fail → pass",
  error: "Error in an arm",
};

export const VERDICT_CHANGE_TONES: Record<VerdictChange, "slate" | "red" | "green" | "amber"> = {
  same: "slate",
  pass_to_fail: "red",
  fail_to_pass: "green",
  error: "amber",
};

const isNum = (n: number | null | undefined): n is number => typeof n === "number" && Number.isFinite(n);

/** Whole units from 10 up, one decimal below: 212 → "212", 4.26 → "4.3". */
export function magnitude(n: number): string {
  const abs = Math.abs(n);
  return abs >= 10 ? Math.round(abs).toLocaleString("en-US") : String(Math.round(abs * 10) / 10);
}

/** A signed difference: +212 ms, −3.5 ms, ±0 ms; "—" without a value. */
export function signed(n: number | null | undefined, unit = ""): string {
  if (!isNum(n)) return "—";
  const sign = n > 0 ? "+" : n < 0 ? "−" : "±";
  return `${sign}${magnitude(n)}${unit}`;
}

/** An interval with signs: "95 % CI −4 to +18 ms". */
export function formatInterval(ci: Interval | null | undefined, unit = ""): string {
  if (!ci) return "no interval";
  return `95 % CI ${signed(ci[0])} to ${signed(ci[1])}${unit}`;
}

export function formatMs(n: number | null | undefined): string {
  if (!isNum(n)) return "—";
  return n >= 10 ? `${Math.round(n).toLocaleString("en-US")} ms` : `${Math.round(n * 100) / 100} ms`;
}

export function formatRate(n: number | null | undefined): string {
  return isNum(n) ? `${Math.round(n * 10) / 10} %` : "—";
}

export function formatRatio(n: number | null | undefined): string {
  return isNum(n) ? `${(Math.round(n * 100) / 100).toFixed(2)}×` : "—";
}

/** The tone of a diff where less is better (latency, tokens): red when the variant costs more. */
export function costTone(n: number | null | undefined): string {
  if (!isNum(n) || n === 0) return "text-slate-700";
  return n > 0 ? "text-red-700" : "text-green-700";
}

export const pairLabel = (p: { test_case_name: string; repetition: number }, repetitions: number) =>
  repetitions > 1 ? `${p.test_case_name} (rep ${p.repetition + 1})` : p.test_case_name;
