/** Small formatters shared by the run views (pure, client- and server-safe). */

/** 850 → "850 ms", 12_300 → "12.3 s", 125_000 → "2m 05s", 3_725_000 → "1h 02m". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const total = Math.round(s);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  return h > 0 ? `${h}h ${String(m).padStart(2, "0")}m` : `${m}m ${String(sec).padStart(2, "0")}s`;
}

const numberFormat = new Intl.NumberFormat("en");
export const formatNumber = (n: number | null | undefined) => (n === null || n === undefined ? "—" : numberFormat.format(n));

const dateTimeFormat = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });
/** A fixed (UTC) rendering so server and client markup agree. */
export const formatDateTime = (iso: string | null | undefined) => (iso ? `${dateTimeFormat.format(new Date(iso))} UTC` : "—");

export const formatPercent = (n: number | null | undefined) => (n === null || n === undefined ? "—" : `${Math.round(n * 10) / 10}%`);

/** Scores are 0..1 (normalised); two decimals. */
export const formatScore = (n: number | null | undefined) => (n === null || n === undefined ? "—" : n.toFixed(2));

export const TRIGGER_LABELS: Record<string, string> = { manual: "Manual", api: "API", schedule: "Schedule" };

/** What an experiment run belongs to (RunDto and RunHistoryRow both carry it). */
export type ExperimentRef = {
  comparison_id?: string | null;
  arm_index?: number | null;
  matrix_id?: string | null;
  combination_index?: number | null;
};

/** An arm's letter as its comparison shows it: A (baseline), B (variant), then 3, 4… */
export const armLetter = (index: number) => (index === 0 ? "A" : index === 1 ? "B" : String(index + 1));

/** "Comparison arm B", "Matrix combination 3" (1-based, as the matrix page's C3); null for an ordinary run. */
export function experimentLabel(run: ExperimentRef): string | null {
  if (run.comparison_id) return run.arm_index == null ? "Comparison arm" : `Comparison arm ${armLetter(run.arm_index)}`;
  if (run.matrix_id) return run.combination_index == null ? "Matrix combination" : `Matrix combination ${run.combination_index + 1}`;
  return null;
}

/** Pretty JSON for display; strings that hold JSON are parsed first. */
export function prettyJson(value: unknown): string {
  if (typeof value === "string") {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  if (value === undefined) return "";
  return JSON.stringify(value, null, 2);
}
