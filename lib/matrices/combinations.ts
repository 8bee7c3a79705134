/**
 * The pure parts of a matrix run (the variables model): expanding axes into combinations,
 * labelling them, the matrix status that follows its runs, the cost estimate and the best
 * combination. No server-only imports: the service, the pages and the tests share them.
 */

export type AxisValue = string | number | boolean;
export type Axes = Record<string, AxisValue[]>;
export type CombinationValues = Record<string, AxisValue>;

/** How many combinations the axes make (the product of their lengths; 0 without axes). */
export function combinationCount(axes: Axes): number {
  const names = Object.keys(axes);
  if (names.length === 0) return 0;
  return names.reduce((n, name) => n * (axes[name]?.length ?? 0), 1);
}

/**
 * The cartesian product in axis order: the first axis varies slowest, the last fastest
 * (`{A: [a1, a2], B: [b1, b2]}` → a1b1, a1b2, a2b1, a2b2), like nested loops over the axes.
 */
export function expandCombinations(axes: Axes): CombinationValues[] {
  const names = Object.keys(axes);
  if (names.length === 0) return [];
  let out: CombinationValues[] = [{}];
  for (const name of names) {
    const values = axes[name] ?? [];
    out = out.flatMap((partial) => values.map((value) => ({ ...partial, [name]: value })));
  }
  return out;
}

/** A value as a person reads it: strings quoted, numbers and booleans as they are. */
export function describeValue(value: AxisValue): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** `Temperature=0.7, AIConfiguration="gpt-a"`: a combination's values in axis order. */
export function combinationLabel(values: CombinationValues): string {
  return Object.entries(values)
    .map(([name, value]) => `${name}=${describeValue(value)}`)
    .join(", ");
}

export type RunStatusLike = "pending" | "running" | "completed" | "failed" | "cancelled";

/**
 * A matrix's status from its runs: pending until one starts, running while any is unfinished,
 * then cancelled (a cancel was requested or a run was cancelled), failed (every run failed) or
 * completed (a combination that failed is reported on its own column).
 */
export function matrixStatusOf(statuses: readonly string[], cancelRequested: boolean): RunStatusLike {
  if (statuses.length === 0) return cancelRequested ? "cancelled" : "pending";
  const open = statuses.filter((s) => s === "pending" || s === "running");
  if (open.length > 0) return open.length === statuses.length && statuses.every((s) => s === "pending") ? "pending" : "running";
  if (cancelRequested || statuses.includes("cancelled")) return "cancelled";
  if (statuses.every((s) => s === "failed")) return "failed";
  return "completed";
}

/** Estimated cost from token counts and per-million prices; null unless both prices are known. */
export function estimateCost(
  tokens: { prompt: number; completion: number },
  prices: { input: number | null; output: number | null } | null,
): number | null {
  if (!prices || prices.input === null || prices.output === null) return null;
  const cost = (tokens.prompt * prices.input + tokens.completion * prices.output) / 1_000_000;
  return Math.round(cost * 1e6) / 1e6;
}

export type RankedCombination = {
  index: number;
  /** Cases executed (passed + failed + errors); a combination with none is not ranked. */
  executed: number;
  pass_rate: number;
  estimated_cost: number | null;
  latency_p50_ms: number | null;
};

/**
 * The best combination: highest pass rate, then lowest estimated cost, then lowest median
 * latency (an unknown cost or latency ranks after a known one), then the lower index.
 * Only combinations that executed at least one case are ranked; null when none did.
 */
export function bestCombinationIndex(rows: readonly RankedCombination[]): number | null {
  const ranked = rows.filter((r) => r.executed > 0);
  if (ranked.length === 0) return null;
  const nullLast = (a: number | null, b: number | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a - b);
  const sorted = [...ranked].sort(
    (a, b) =>
      b.pass_rate - a.pass_rate ||
      nullLast(a.estimated_cost, b.estimated_cost) ||
      nullLast(a.latency_p50_ms, b.latency_p50_ms) ||
      a.index - b.index,
  );
  return sorted[0]!.index;
}
