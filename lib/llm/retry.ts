import type { Semaphore } from "./concurrency";
import { AttemptError, LlmError } from "./errors";
import type { BudgetReply, BudgetRequest, LlmErrorType, RateBudget, RatePermit } from "./types";

/** The A/B engine: at most 3 attempts, backoff 100 ms → 200 ms → 400 ms, 30 s per call. */
export type RetryPolicy = {
  maxAttempts: number;
  initialDelayMs: number;
  backoffFactor: number;
  /** Per-attempt timeout. */
  timeoutMs: number;
  /** Upper bound on a server's Retry-After. */
  maxRetryAfterMs: number;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 3,
  initialDelayMs: 100,
  backoffFactor: 2,
  timeoutMs: 30_000,
  maxRetryAfterMs: 30_000,
};

/** The wait before retry number `retryIndex` (0 for the first retry): 100, 200, 400, … ms. */
export function backoffDelayMs(policy: Pick<RetryPolicy, "initialDelayMs" | "backoffFactor">, retryIndex: number): number {
  return policy.initialDelayMs * policy.backoffFactor ** retryIndex;
}

/**
 * Reads `retry-after-ms` or `Retry-After` (seconds, or an HTTP date) into milliseconds.
 * Returns null when absent or unreadable.
 */
export function parseRetryAfter(headers: Headers | null | undefined, now: number = Date.now()): number | null {
  if (!headers) return null;
  const ms = headers.get("retry-after-ms");
  if (ms && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  const value = headers.get("retry-after")?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

export type RetryOutcome<T> = {
  value: T;
  attempts: number;
  attemptErrors: LlmErrorType[];
  /**
   * Duration of the successful attempt (ms, float): what the attempt reported through
   * `reportLatency` (request written → last byte, lib/llm/timing.ts), else the attempt's own wall
   * time. Never includes the limiter wait or backoff.
   */
  latencyMs: number;
  /** Wall time including queueing and backoff. */
  totalMs: number;
};

export type RetryOptions = {
  policy?: Partial<RetryPolicy>;
  /** Overrides policy.timeoutMs. */
  timeoutMs?: number;
  /** Cancels the call (run cancelled): aborts the attempt in flight, never retried. */
  signal?: AbortSignal;
  /** Concurrency cap held for the duration of each attempt (not during backoff). */
  limiter?: Semaphore;
  /**
   * The provider's rate-limit budget: a permit is taken before each attempt (before the
   * concurrency cap) and settled with the attempt's reply. A 429 then does not use up one of the
   * policy's attempts while the budget's maxWaitMs allows waiting: the budget holds the next
   * attempt for as long as the provider asked.
   */
  budget?: { budget: RateBudget; request: BudgetRequest };
  /** Maps an unexpected error thrown by an attempt to a classified one. */
  classify?: (err: unknown) => AttemptError;
  /** Called after every failed attempt (including the last). */
  onAttemptError?: (err: AttemptError, attempt: number) => void;
};

export type AttemptContext = {
  signal: AbortSignal;
  attempt: number;
  /**
   * The attempt's own measure of its latency (ms): request written → last byte received, without
   * request building or parsing. The last report before the attempt settles counts.
   */
  reportLatency: (ms: number) => void;
  /** What came back (status, headers, the tokens it reports), for the rate-limit budget. */
  reportReply: (reply: BudgetReply) => void;
};

/**
 * Runs `attempt` with the retry policy: a per-attempt timeout (the attempt's signal aborts and
 * the attempt is abandoned), retries with exponential backoff on retryable errors (Retry-After
 * honoured, capped), no retry on client errors, and immediate stop on the external signal.
 * Throws LlmError when the call fails for good.
 */
export async function runWithRetry<T>(attempt: (ctx: AttemptContext) => Promise<T>, opts: RetryOptions = {}): Promise<RetryOutcome<T>> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...opts.policy };
  const timeoutMs = opts.timeoutMs ?? policy.timeoutMs;
  const maxAttempts = Math.max(1, Math.floor(policy.maxAttempts));
  const { signal } = opts;
  const started = performance.now();
  const attemptErrors: LlmErrorType[] = [];
  let lastLatency = 0;

  const fail = (err: AttemptError, attempts: number): LlmError =>
    new LlmError(err.type, err.message, {
      attempts,
      attemptErrors,
      status: err.status,
      latencyMs: lastLatency,
      totalMs: performance.now() - started,
      cause: err.cause ?? err,
    });

  // 429s the budget absorbed: attempts made that do not count against policy.maxAttempts.
  let absorbed = 0;
  for (let n = 1; ; n++) {
    if (signal?.aborted) throw fail(new AttemptError("aborted", "Cancelled"), n - 1);
    let permit: RatePermit | undefined;
    let release: (() => void) | undefined;
    const nothing: BudgetReply = { status: null, headers: null, usage: null };
    try {
      permit = opts.budget ? await opts.budget.budget.acquire(opts.budget.request, signal) : undefined;
    } catch (err) {
      // The budget gave up waiting (its maxWaitMs): the call fails with what it said.
      if (err instanceof AttemptError && err.type === "rate_limited") {
        attemptErrors.push(err.type);
        throw fail(err, n - 1);
      }
      throw fail(new AttemptError("aborted", "Cancelled"), n - 1);
    }
    try {
      release = opts.limiter ? await opts.limiter.acquire(signal) : undefined;
    } catch {
      await permit?.settle(nothing);
      throw fail(new AttemptError("aborted", "Cancelled"), n - 1);
    }
    let reply = nothing;
    let settled: Promise<void> | undefined;
    const reportReply = (r: BudgetReply) => {
      reply = r;
    };
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new AttemptError("timeout", `Timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const onAbort = () => controller.abort(new AttemptError("aborted", "Cancelled"));
    signal?.addEventListener("abort", onAbort, { once: true });
    let reported: number | null = null;
    const reportLatency = (ms: number) => {
      if (Number.isFinite(ms) && ms >= 0) reported = ms;
    };
    const attemptStart = performance.now();
    let failure: AttemptError;
    try {
      const value = await raceAbort(attempt({ signal: controller.signal, attempt: n, reportLatency, reportReply }), controller.signal);
      lastLatency = reported ?? performance.now() - attemptStart;
      return { value, attempts: n, attemptErrors, latencyMs: lastLatency, totalMs: performance.now() - started };
    } catch (err) {
      lastLatency = reported ?? performance.now() - attemptStart;
      if (signal?.aborted) failure = new AttemptError("aborted", "Cancelled", { cause: err });
      else if (timedOut) failure = new AttemptError("timeout", `Timed out after ${timeoutMs} ms`, { cause: err });
      else if (err instanceof AttemptError) failure = err;
      else failure = (opts.classify ?? defaultClassify)(err);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      release?.();
      // Not awaited on success (the answer is not held back); awaited below otherwise.
      settled = permit?.settle(reply);
    }
    // Settled before the next attempt asks: a 429 must hold that attempt back.
    await settled;
    attemptErrors.push(failure.type);
    opts.onAttemptError?.(failure, n);
    if (failure.type === "rate_limited" && opts.budget && performance.now() - started < opts.budget.budget.maxWaitMs) {
      absorbed++;
      continue;
    }
    if (!failure.retryable || n - absorbed >= maxAttempts) throw fail(failure, n);

    let delay = backoffDelayMs(policy, n - 1 - absorbed);
    if (failure.retryAfterMs !== null) delay = Math.max(delay, Math.min(failure.retryAfterMs, policy.maxRetryAfterMs));
    try {
      await sleep(delay, signal);
    } catch {
      throw fail(new AttemptError("aborted", "Cancelled"), n);
    }
  }
}

function defaultClassify(err: unknown): AttemptError {
  const message = err instanceof Error ? err.message : String(err);
  return new AttemptError("connection", message, { cause: err });
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/** Waits `ms`, rejecting early when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AttemptError("aborted", "Cancelled"));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AttemptError("aborted", "Cancelled"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
