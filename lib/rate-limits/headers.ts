/**
 * What a provider's answer says about its rate limits: the limits themselves
 * (`x-ratelimit-limit-requests` / `-tokens`, per minute as OpenAI sends them), how long to hold
 * off (`retry-after-ms`, `Retry-After`, or the `x-ratelimit-reset-*` of a window with nothing
 * remaining), in the formats OpenAI, Azure OpenAI and Anthropic-compatible gateways send.
 */
import { parseRetryAfter } from "@/lib/llm/retry";

export type LimitSignals = {
  /** Requests / tokens per minute the provider says the key has; null when not sent. */
  limitRpm: number | null;
  limitTpm: number | null;
  /** Hold every request this long (ms); 0: no hold. */
  blockMs: number;
};

/** A 429 that says nothing about when to retry holds requests this long. */
export const DEFAULT_429_HOLD_MS = 1_000;

/**
 * Reads the rate-limit headers of an answer. A 429 always holds requests: for its Retry-After,
 * else until the exhausted window resets, else DEFAULT_429_HOLD_MS. Any other answer holds them
 * only when a window says nothing remains (see exhaustedFor).
 */
export function readLimitSignals(status: number | null, headers: Headers | null, now = Date.now()): LimitSignals {
  const limitRpm = positiveNumber(headers?.get("x-ratelimit-limit-requests"));
  const limitTpm = positiveNumber(headers?.get("x-ratelimit-limit-tokens"));
  const exhausted = Math.max(exhaustedFor(headers, "requests", limitRpm), exhaustedFor(headers, "tokens", limitTpm));
  if (status === 429) {
    const retryAfter = parseRetryAfter(headers, now);
    const blockMs = retryAfter !== null && retryAfter > 0 ? retryAfter : exhausted > 0 ? exhausted : DEFAULT_429_HOLD_MS;
    return { limitRpm, limitTpm, blockMs };
  }
  return { limitRpm, limitTpm, blockMs: exhausted };
}

/**
 * ms to hold when the window's remaining count is 0, else 0: until it resets, but with a known
 * per-minute limit at most one unit's share of the minute (OpenAI's reset is when the budget is
 * full again, yet it refills continuously: the next request is allowed long before).
 */
function exhaustedFor(headers: Headers | null, kind: "requests" | "tokens", perMinute: number | null): number {
  const remaining = headers?.get(`x-ratelimit-remaining-${kind}`);
  if (remaining == null || Number(remaining.trim()) > 0) return 0;
  const reset = parseResetDuration(headers?.get(`x-ratelimit-reset-${kind}`)) ?? 0;
  return perMinute === null ? reset : Math.min(reset, Math.ceil(60_000 / perMinute));
}

/**
 * OpenAI's reset durations: "20ms", "1s", "1.5s", "6m0s", "1h2m3.5s"; a bare number is seconds.
 * Null when absent or unreadable.
 */
export function parseResetDuration(value: string | null | undefined): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const match = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/.exec(text);
  if (!match || match.slice(1).every((part) => part === undefined)) return null;
  const [h, m, s, ms] = match.slice(1).map((part) => (part === undefined ? 0 : Number(part)));
  return Math.round(h! * 3_600_000 + m! * 60_000 + s! * 1_000 + ms!);
}

function positiveNumber(value: string | null | undefined): number | null {
  if (value == null) return null;
  const n = Number(value.trim());
  return Number.isFinite(n) && n > 0 ? n : null;
}
