/**
 * The shared budgets' storage: one round trip per request taken (`assay_rate_take`) and one per
 * request settled (`assay_rate_settle`), PL/pgSQL functions of the rate_limits migration that do
 * the bucket arithmetic under the budget row's lock, so every process draws on one budget. On the
 * executor's pool: these run between agent answers, never behind page requests.
 */
import "server-only";
import { executorPool } from "@/lib/db";

export type DeclaredLimits = { rpm: number | null; tpm: number | null; maxConcurrency: number | null };

export type TakeAnswer = { granted: boolean; waitMs: number; reason: "blocked" | "requests" | "tokens" | "concurrency" | null };

/** A crashed process's in-flight count stops counting against max_concurrency after this long. */
export const HOLDER_LEASE_MS = 120_000;

export async function takeFromBudget(
  budget: { key: string; label: string; limits: DeclaredLimits },
  tokens: number,
  owner: string,
): Promise<TakeAnswer> {
  const { rows } = await executorPool().query<{ granted: boolean; wait_ms: number; reason: TakeAnswer["reason"] }>({
    name: "assay-rate-take",
    text: "SELECT granted, wait_ms, reason FROM assay_rate_take($1, $2, $3, $4, $5, $6, $7, $8)",
    values: [budget.key, budget.label, budget.limits.rpm, budget.limits.tpm, budget.limits.maxConcurrency, tokens, owner, HOLDER_LEASE_MS],
  });
  const row = rows[0]!;
  return { granted: row.granted, waitMs: Math.max(0, row.wait_ms), reason: row.reason };
}

export type Settlement = {
  /** Free the concurrency slot the take counted (a declared max_concurrency). */
  release: boolean;
  /** Tokens expected minus tokens used (negative: it used more). */
  refund: number;
  blockMs: number;
  limited: boolean;
  success: boolean;
  limitRpm: number | null;
  limitTpm: number | null;
  /** A 429's: the requests per minute this process was sending (unpaced sends are not in the database). */
  observedRpm: number | null;
};

export async function settleBudget(budget: { key: string; label: string }, owner: string, s: Settlement): Promise<void> {
  await executorPool().query({
    name: "assay-rate-settle",
    text: "SELECT assay_rate_settle($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    values: [
      budget.key,
      budget.label,
      owner,
      s.release,
      s.refund,
      Math.round(s.blockMs),
      s.limited,
      s.success,
      s.limitRpm,
      s.limitTpm,
      s.observedRpm,
    ],
  });
}

/** What the budget has learned (another process's 429s included): whether its requests must be paced. */
export async function learnedState(key: string): Promise<{ paced: boolean }> {
  const { rows } = await executorPool().query<{ paced: boolean }>({
    name: "assay-rate-peek",
    text: `SELECT ("learnedRpm" IS NOT NULL OR "learnedTpm" IS NOT NULL OR coalesce("blockedUntil" > now(), false)) AS paced
           FROM "RateLimitBudget" WHERE "key" = $1`,
    values: [key],
  });
  return { paced: rows[0]?.paced ?? false };
}
