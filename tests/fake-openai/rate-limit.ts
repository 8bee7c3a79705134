// The fake's provider budget: requests and tokens per minute enforced as providers document them
// (OpenAI: limits replenish continuously), as two token buckets that start full and hold
// `burstSeconds` of their limit. A request is admitted while a request is left and the token
// bucket is not in debt; it takes one request and the tokens its answer reports (the bucket may
// go into debt). Refusals say which limit and carry the headers OpenAI sends: Retry-After(-ms)
// and x-ratelimit-limit/remaining/reset-requests/tokens (the latter on admitted answers too).

export type RateLimit = { rpm?: number; tpm?: number; burstSeconds?: number };

export type Admission =
  { admitted: true; headers: Record<string, string> } | { admitted: false; limit: "requests" | "tokens"; headers: Record<string, string> };

type Bucket = { perMinute: number; capacity: number; level: number };

export class ProviderBudget {
  readonly #requests: Bucket | null;
  readonly #tokens: Bucket | null;
  readonly #now: () => number;
  #at: number;

  constructor(limit: RateLimit, now: () => number = () => performance.now()) {
    const burst = limit.burstSeconds ?? 1;
    const bucket = (perMinute: number | undefined): Bucket | null => {
      if (perMinute === undefined) return null;
      const capacity = Math.max(1, (perMinute / 60) * burst);
      return { perMinute, capacity, level: capacity };
    };
    this.#requests = bucket(limit.rpm);
    this.#tokens = bucket(limit.tpm);
    this.#now = now;
    this.#at = now();
  }

  /** Admits a request whose answer uses `tokens`, or refuses it. */
  admit(tokens: number): Admission {
    this.#refill();
    const r = this.#requests;
    const t = this.#tokens;
    if (r && r.level < 1) return { admitted: false, limit: "requests", headers: this.#refusalHeaders(msUntil(r, 1)) };
    if (t && t.level <= 0) return { admitted: false, limit: "tokens", headers: this.#refusalHeaders(msUntil(t, Number.MIN_VALUE)) };
    if (r) r.level -= 1;
    if (t) t.level -= tokens;
    return { admitted: true, headers: this.#limitHeaders() };
  }

  #refill() {
    const now = this.#now();
    const elapsedMs = Math.max(0, now - this.#at);
    this.#at = now;
    for (const b of [this.#requests, this.#tokens]) {
      if (b) b.level = Math.min(b.capacity, b.level + (elapsedMs * b.perMinute) / 60_000);
    }
  }

  #refusalHeaders(waitMs: number): Record<string, string> {
    const ms = Math.max(1, Math.ceil(waitMs));
    return { "retry-after-ms": String(ms), "retry-after": String(Math.ceil(ms / 1000)), ...this.#limitHeaders() };
  }

  #limitHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [kind, b] of [
      ["requests", this.#requests],
      ["tokens", this.#tokens],
    ] as const) {
      if (!b) continue;
      headers[`x-ratelimit-limit-${kind}`] = String(b.perMinute);
      headers[`x-ratelimit-remaining-${kind}`] = String(Math.max(0, Math.floor(b.level)));
      headers[`x-ratelimit-reset-${kind}`] = formatDuration(msUntil(b, b.capacity));
    }
    return headers;
  }
}

/** ms until bucket `b` holds `level` (0 when it already does). */
function msUntil(b: Bucket, level: number): number {
  return b.level >= level ? 0 : ((level - b.level) * 60_000) / b.perMinute;
}

/** OpenAI's reset format: "6ms", "1s", "59.995s", "6m0s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.ceil(ms)}ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(3))}s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes}m${Math.round((ms - minutes * 60_000) / 1000)}s`;
}
