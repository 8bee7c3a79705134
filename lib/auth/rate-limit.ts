/**
 * Attempt limits for sign-in, first-run setup and invite acceptance, counted in PostgreSQL (table
 * "AuthRateLimit") so every app process shares them, in a fixed 15-minute window per counter:
 * - per (email, client address): 10 attempts. This is the lock a user runs into, and it is
 *   theirs alone: someone elsewhere typing their address cannot lock them out.
 * - per email, whatever the address: 100 attempts, a ceiling for guessing one account's password
 *   from many addresses (addresses are cheap to change; see lib/auth/client-ip.ts).
 * - per client address, whatever the email: 100 attempts, a ceiling for one address trying many
 *   accounts (a shared office address is not locked by one person's typos).
 * An attempt is counted before any password work; a successful sign-in gives its attempt back, so
 * only failures use up the budget. Called by the Credentials provider (lib/auth/index.ts), the
 * auth actions and the invite actions.
 */
import "server-only";
import { db } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { normaliseEmail } from "@/lib/users/service";

/** Attempts per (email, client address): the lock. */
export const AUTH_ATTEMPT_LIMIT = 10;
/** Attempts per email, and per client address, over all the others: the ceilings. */
export const AUTH_ATTEMPT_CEILING = 100;
export const AUTH_ATTEMPT_WINDOW_MS = 15 * 60 * 1000;

export type RateLimitVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * The counters one attempt touches: its client address (when known), its email (when known) and
 * the pair of both (an unknown address counts as one address of its own).
 */
export function attemptKeys(input: { ip?: string | null; email?: string | null }): string[] {
  const keys: string[] = [];
  if (input.ip) keys.push(`ip:${input.ip}`);
  if (input.email) {
    const email = normaliseEmail(input.email);
    keys.push(`email:${email}`, `email+ip:${email} ${input.ip ?? "unknown"}`);
  }
  return keys;
}

/** A counter's limit: the pair locks at AUTH_ATTEMPT_LIMIT, an email or an address alone at the ceiling. */
export function attemptLimit(key: string): number {
  return key.startsWith("email+ip:") ? AUTH_ATTEMPT_LIMIT : AUTH_ATTEMPT_CEILING;
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
 * whether it may go ahead: refused once any key has seen more than its limit in its window.
 */
export async function consumeAttempt(keys: string[]): Promise<RateLimitVerdict> {
  if (keys.length === 0) return { ok: true };
  const windowMs = AUTH_ATTEMPT_WINDOW_MS;
  const rows = await db.$queryRaw<{ key: string; count: number; retry: number }[]>`
    INSERT INTO "AuthRateLimit" ("key", "count", "resetAt")
    SELECT k, 1, now() + ${windowMs}::int * interval '1 millisecond' FROM unnest(${keys}::text[]) AS k
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "AuthRateLimit"."resetAt" <= now() THEN 1 ELSE "AuthRateLimit"."count" + 1 END,
      "resetAt" = CASE WHEN "AuthRateLimit"."resetAt" <= now() THEN EXCLUDED."resetAt" ELSE "AuthRateLimit"."resetAt" END
    RETURNING "key", "count", ceil(extract(epoch FROM "resetAt" - now()))::int AS retry`;
  // Expired rows are only garbage; sweep them now and then instead of on every attempt.
  if (Math.random() < 0.02) await db.$executeRaw`DELETE FROM "AuthRateLimit" WHERE "resetAt" < now() - interval '1 hour'`;
  const over = rows.filter((r) => r.count > attemptLimit(r.key));
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
  const limits = keys.map(attemptLimit);
  const [row] = await db.$queryRaw<{ retry: number | null }[]>`
    SELECT max(ceil(extract(epoch FROM r."resetAt" - now())))::int AS retry
    FROM "AuthRateLimit" r JOIN unnest(${keys}::text[], ${limits}::int[]) AS l(k, lim) ON l.k = r."key"
    WHERE r."resetAt" > now() AND r."count" >= l.lim`;
  return row?.retry ? { ok: false, retryAfterSeconds: Math.max(1, row.retry) } : { ok: true };
}

/** A successful sign-in gives back the attempt it used. */
export async function refundAttempt(keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.$executeRaw`
    UPDATE "AuthRateLimit" SET "count" = greatest("count" - 1, 0)
    WHERE "key" = ANY(${keys}::text[]) AND "resetAt" > now()`;
}
