import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * How a delivery is signed and when a failed one is tried again. Pure functions: the worker,
 * the README's verification snippet and the tests share them.
 *
 * Signature: `X-Assay-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<body>">` with the webhook's
 * secret, where `<timestamp>` is the `X-Assay-Timestamp` header (Unix seconds) and `<body>` the
 * raw request body. Signing the timestamp lets a receiver refuse replays of old deliveries.
 */
export function signatureOf(secret: string, timestamp: number | string, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex")}`;
}

/** A receiver's check (constant time); `toleranceSeconds` refuses old timestamps (replays). */
export function verifySignature(
  secret: string,
  headers: { timestamp: string | null | undefined; signature: string | null | undefined },
  body: string,
  opts: { now?: Date; toleranceSeconds?: number } = {},
): boolean {
  if (!headers.timestamp || !headers.signature || !/^\d+$/.test(headers.timestamp)) return false;
  const age = Math.abs((opts.now ?? new Date()).getTime() / 1000 - Number(headers.timestamp));
  if (age > (opts.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signatureOf(secret, headers.timestamp, body));
  const given = Buffer.from(headers.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Delivery retry policy: 8 attempts; waits of 1 min × 3ⁿ, capped at 6 h (1, 3, 9, 27, 81, 243 min, 6 h). */
export const RETRY_POLICY = { maxAttempts: 8, baseDelayMs: 60_000, factor: 3, maxDelayMs: 6 * 60 * 60_000 } as const;

/** The wait before the next attempt after `attempts` failed attempts (1-based), on `baseDelayMs`. */
export function retryDelayMs(attempts: number, baseDelayMs: number = RETRY_POLICY.baseDelayMs): number {
  const scale = baseDelayMs / RETRY_POLICY.baseDelayMs;
  const delay = baseDelayMs * RETRY_POLICY.factor ** Math.max(0, attempts - 1);
  return Math.min(delay, RETRY_POLICY.maxDelayMs * scale);
}
