// The fake's provider budget: requests and tokens per minute enforced as providers document them
// (OpenAI: limits replenish continuously), as two token buckets that start full and hold
// `burstSeconds` of their limit. A request is admitted while a request is left and the token
// bucket is not in debt; it takes one request and the tokens its answer reports (the bucket may
// go into debt). Refusals say which limit and carry the headers OpenAI sends: Retry-After(-ms)
// and x-ratelimit-limit/remaining/reset-requests/tokens (the latter on admitted answers too).
// Pure: time comes from an injectable clock (ms), so the bucket math is tested deterministically.

export type RateLimit = {
  /** requests per minute */
  rpm?: number;
  /** tokens per minute (prompt + completion tokens of the answers) */
  tpm?: number;
  /** seconds of each limit a full bucket holds (the burst allowed at once); default 1 */
  burstSeconds?: number;
};

export type LimitKind = "requests" | "tokens";

export type Admission =
  | { admitted: true; headers: Record<string, string> }
  | { admitted: false; limit: LimitKind; retryAfterMs: number; headers: Record<string, string> };

type Bucket = { perMinute: number; capacity: number; level: number };

/**
 * Float slack: a refilled bucket within a millionth of a request counts as holding it, and a wait
 * within a nanosecond of a whole ms is that ms (0.998 requests at 120 rpm: 1 ms, not 2).
 */
const EPSILON = 1e-6;
const MS_SLACK = 1e-9;

/** Why `limit` is not a usable RateLimit, or null when it is. */
export function rateLimitProblem(limit: RateLimit): string | null {
  for (const key of ["rpm", "tpm", "burstSeconds"] as const) {
    const v = limit[key];
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || v <= 0)) return `${key} must be a number > 0`;
  }
  return null;
}

function bucket(perMinute: number | undefined, burstSeconds: number): Bucket | null {
  if (perMinute === undefined) return null;
  const capacity = Math.max(1, (perMinute / 60) * burstSeconds);
  return { perMinute, capacity, level: capacity };
}

/** ms until bucket `b` holds `level` (0 when it already does; fractional). */
function msUntil(b: Bucket, level: number): number {
  return b.level >= level ? 0 : ((level - b.level) * 60_000) / b.perMinute;
}

/** Whole ms until the request bucket holds one request (0: it does now). */
function requestWait(b: Bucket | null): number {
  if (!b || b.level >= 1 - EPSILON) return 0;
  return Math.max(1, Math.ceil(msUntil(b, 1) - MS_SLACK));
}

/** Whole ms until the token bucket is out of debt, strictly above 0 (0: it is now). */
function tokenWait(b: Bucket | null): number {
  if (!b || b.level > 0) return 0;
  return Math.floor(msUntil(b, 0) + MS_SLACK) + 1;
}

export class ProviderBudget {
  readonly limit: Readonly<RateLimit>;
  readonly #requests: Bucket | null;
  readonly #tokens: Bucket | null;
  readonly #now: () => number;
  #at: number;

  /** Throws a RangeError when a limit is not a positive finite number. */
  constructor(limit: RateLimit, now: () => number = () => performance.now()) {
    const problem = rateLimitProblem(limit);
    if (problem) throw new RangeError(`rate limit: ${problem}`);
    const burst = limit.burstSeconds ?? 1;
    this.limit = { ...limit };
    this.#requests = bucket(limit.rpm, burst);
    this.#tokens = bucket(limit.tpm, burst);
    this.#now = now;
    this.#at = now();
  }

  /**
   * Admits a request whose answer uses `tokens` (taking 1 request and those tokens), or refuses
   * it, naming the limit that holds it longest and how long until it would be admitted.
   */
  admit(tokens: number): Admission {
    this.#refill();
    const waits = { requests: requestWait(this.#requests), tokens: tokenWait(this.#tokens) };
    const retryAfterMs = Math.max(waits.requests, waits.tokens);
    if (retryAfterMs > 0) {
      const limit: LimitKind = waits.tokens > waits.requests ? "tokens" : "requests";
      return { admitted: false, limit, retryAfterMs, headers: { ...retryHeaders(retryAfterMs), ...this.#limitHeaders() } };
    }
    if (this.#requests) this.#requests.level -= 1;
    if (this.#tokens) this.#tokens.level -= Math.max(0, tokens);
    return { admitted: true, headers: this.#limitHeaders() };
  }

  /** What the buckets hold now (null: that limit is not set); negative tokens are debt. */
  levels(): { requests: number | null; tokens: number | null } {
    this.#refill();
    return { requests: this.#requests?.level ?? null, tokens: this.#tokens?.level ?? null };
  }

  #refill(): void {
    const now = this.#now();
    const elapsedMs = Math.max(0, now - this.#at);
    this.#at = now;
    for (const b of [this.#requests, this.#tokens]) {
      if (b) b.level = Math.min(b.capacity, b.level + (elapsedMs * b.perMinute) / 60_000);
    }
  }

  /** x-ratelimit-limit/remaining/reset-* of the limits that are set. */
  #limitHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [kind, b] of [
      ["requests", this.#requests],
      ["tokens", this.#tokens],
    ] as const) {
      if (b) Object.assign(headers, bucketHeaders(kind, b));
    }
    return headers;
  }
}

function bucketHeaders(kind: LimitKind, b: Bucket): Record<string, string> {
  return {
    [`x-ratelimit-limit-${kind}`]: String(b.perMinute),
    [`x-ratelimit-remaining-${kind}`]: String(Math.max(0, Math.floor(b.level + EPSILON))),
    [`x-ratelimit-reset-${kind}`]: formatDuration(msUntil(b, b.capacity)),
  };
}

function retryHeaders(ms: number): Record<string, string> {
  return { "retry-after-ms": String(ms), "retry-after": String(Math.ceil(ms / 1000)) };
}

/**
 * OpenAI's reset format (Go durations, rounded up to whole ms): "0s", "6ms", "1s", "59.995s",
 * "6m0s", "6m0.5s", "1h0m0s".
 */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.ceil(ms - MS_SLACK));
  if (total === 0) return "0s";
  if (total < 1000) return `${total}ms`;
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = `${(total % 60_000) / 1000}s`;
  if (hours > 0) return `${hours}h${minutes}m${seconds}`;
  return minutes > 0 ? `${minutes}m${seconds}` : seconds;
}
