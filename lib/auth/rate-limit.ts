/**
 * Attempt limits for sign-in, first-run setup and invite acceptance: 10 attempts per client IP and
 * per email address in a fixed 15-minute window, counted in PostgreSQL (table "AuthRateLimit") so
 * every app process shares them. An attempt is counted before any password work; a successful
 * sign-in gives its attempt back, so only failures use up the budget. Called by the Credentials
 * provider (lib/auth/index.ts), the auth actions and the invite actions.
 */
import "server-only";
import { db } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { normaliseEmail } from "@/lib/users/service";

export const AUTH_ATTEMPT_LIMIT = 10;
export const AUTH_ATTEMPT_WINDOW_MS = 15 * 60 * 1000;

export type RateLimitVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

/** The counters one attempt touches: its IP (when known) and its email (when known). */
export function attemptKeys(input: { ip?: string | null; email?: string | null }): string[] {
  const keys: string[] = [];
  if (input.ip) keys.push(`ip:${input.ip}`);
  if (input.email) keys.push(`email:${normaliseEmail(input.email)}`);
  return keys;
}

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts, try again in ${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/** Refused by a rate limit; carries the seconds until the window ends (HTTP 429, Retry-After). */
export class TooManyAttemptsError extends DomainError {
  override readonly status = 429;
  override readonly code = "rate_limited";
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(tooManyAttemptsMessage(retryAfterSeconds));
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * Counts one attempt on every key (one statement, atomic per key under concurrency) and says
 * whether it may go ahead: refused once any key has seen more than the limit in its window.
 */
export async function consumeAttempt(keys: string[]): Promise<RateLimitVerdict> {
  if (keys.length === 0) return { ok: true };
  const windowMs = AUTH_ATTEMPT_WINDOW_MS;
  const rows = await db.$queryRaw<{ count: number; retry: number }[]>`
    INSERT INTO "AuthRateLimit" ("key", "count", "resetAt")
    SELECT k, 1, now() + ${windowMs}::int * interval '1 millisecond' FROM unnest(${keys}::text[]) AS k
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "AuthRateLimit"."resetAt" <= now() THEN 1 ELSE "AuthRateLimit"."count" + 1 END,
      "resetAt" = CASE WHEN "AuthRateLimit"."resetAt" <= now() THEN EXCLUDED."resetAt" ELSE "AuthRateLimit"."resetAt" END
    RETURNING "count", ceil(extract(epoch FROM "resetAt" - now()))::int AS retry`;
  // Expired rows are only garbage; sweep them now and then instead of on every attempt.
  if (Math.random() < 0.02) await db.$executeRaw`DELETE FROM "AuthRateLimit" WHERE "resetAt" < now() - interval '1 hour'`;
  const over = rows.filter((r) => r.count > AUTH_ATTEMPT_LIMIT);
  if (over.length === 0) return { ok: true };
  return { ok: false, retryAfterSeconds: Math.max(1, ...over.map((r) => r.retry)) };
}

/** Like consumeAttempt, but throws TooManyAttemptsError when refused. */
export async function requireAttempt(keys: string[]): Promise<void> {
  const verdict = await consumeAttempt(keys);
  if (!verdict.ok) throw new TooManyAttemptsError(verdict.retryAfterSeconds);
}

/** Without counting: would the next attempt on these keys be refused, and for how long? */
export async function peekAttempts(keys: string[]): Promise<RateLimitVerdict> {
  if (keys.length === 0) return { ok: true };
  const [row] = await db.$queryRaw<{ retry: number | null }[]>`
    SELECT max(ceil(extract(epoch FROM "resetAt" - now())))::int AS retry FROM "AuthRateLimit"
    WHERE "key" = ANY(${keys}::text[]) AND "resetAt" > now() AND "count" >= ${AUTH_ATTEMPT_LIMIT}::int`;
  return row?.retry ? { ok: false, retryAfterSeconds: Math.max(1, row.retry) } : { ok: true };
}

/** A successful sign-in gives back the attempt it used. */
export async function refundAttempt(keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.$executeRaw`
    UPDATE "AuthRateLimit" SET "count" = greatest("count" - 1, 0)
    WHERE "key" = ANY(${keys}::text[]) AND "resetAt" > now()`;
}
