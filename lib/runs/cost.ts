/**
 * What a case result's LLM calls cost, from the prices (USD per million tokens) of the model
 * configurations as the run snapshotted them at its start, so a later price edit never rewrites
 * history. Three parts: the agent, the simulated user and the judge (the judge's checks and
 * metrics included). A part whose model configuration has no prices costs `null` ("—"), never 0:
 * an unknown cost is not a free one. Pure: the case runner computes it, the result writer stores
 * it (CaseResult.costUsd and costBreakdown), finalize sums it per run (./finalize.ts).
 */
import type { CallPurpose, TokenUsage } from "@/lib/llm/types";

/** USD per million tokens, as ModelConfig.inputPricePerMtok / outputPricePerMtok. */
export type Prices = { input: number; output: number };

/** The API's and the reports' shape: USD per part and in total, null when unknown. */
export type CostBreakdown = { agent: number | null; simulator: number | null; judge: number | null; total: number | null };

export const COST_PARTS = ["agent", "simulator", "judge"] as const;
export type CostPart = (typeof COST_PARTS)[number];

/** The part a call's cost counts in: checks and metrics are the judge's work. */
export function costPart(purpose: CallPurpose): CostPart {
  return purpose === "agent" ? "agent" : purpose === "simulator" ? "simulator" : "judge";
}

/** A model snapshot's prices, or null unless both are set (half a price is no price). */
export function pricesOf(snapshot: { input_price_per_mtok?: unknown; output_price_per_mtok?: unknown } | null | undefined): Prices | null {
  const input = snapshot?.input_price_per_mtok;
  const output = snapshot?.output_price_per_mtok;
  return typeof input === "number" && typeof output === "number" ? { input, output } : null;
}

/** USD of `usage` at `prices`. */
export function usageCost(usage: TokenUsage, prices: Prices): number {
  return (usage.prompt_tokens * prices.input + usage.completion_tokens * prices.output) / 1_000_000;
}

/** Tokens one part of a case used, and at what prices (null: its model configuration has none). */
export type PartUsage = { usage: TokenUsage; prices: Prices | null };

/** Sums a part's calls priced one by one (calls of one part can hit different models: a metric's own model). */
export type PricedCall = { purpose: CallPurpose; usage: TokenUsage | null; prices: Prices | null };

/**
 * The breakdown of one case. A part that used tokens it cannot price is null; a part that used
 * none is 0 when its model has prices and null when it has none. The total is null when a part
 * that used tokens is unknown, or when every part is.
 */
export function caseCost(parts: Record<CostPart, { calls: PricedCall[]; prices: Prices | null }>): CostBreakdown {
  const out = { agent: null, simulator: null, judge: null, total: null } as CostBreakdown;
  let unknownUsed = false;
  let total = 0;
  let anyKnown = false;
  for (const part of COST_PARTS) {
    const { calls, prices } = parts[part];
    let usd = 0;
    let unpriced = false;
    let used = false;
    for (const c of calls) {
      if (!c.usage || c.usage.prompt_tokens + c.usage.completion_tokens === 0) continue;
      used = true;
      if (c.prices) usd += usageCost(c.usage, c.prices);
      else unpriced = true;
    }
    const value = unpriced || (!used && !prices) ? null : usd;
    out[part] = value === null ? null : roundUsd(value);
    if (value === null) unknownUsed ||= used;
    else {
      anyKnown = true;
      total += value;
    }
  }
  out.total = unknownUsed || !anyKnown ? null : roundUsd(total);
  return out;
}

/** Nano-dollar precision: far below any price shown, and sums stay free of float dust (0.1 + 0.2). */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e9) / 1e9;
}

/** A stored breakdown (CaseResult/Run.costBreakdown) as the API returns it; null when none is stored. */
export function costOf(stored: unknown): CostBreakdown | null {
  if (!stored || typeof stored !== "object") return null;
  const s = stored as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
  return { agent: num(s.agent), simulator: num(s.simulator), judge: num(s.judge), total: num(s.total) };
}

/** "$0.0123" for the UI and reports: four decimals under a dollar (a case often costs a fraction of a cent), cents above; "—" when unknown. */
export function formatUsd(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return "—";
  if (usd === 0) return "$0.00";
  if (usd < 0.0001) return "<$0.0001";
  return usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}
