import type { LlmErrorType } from "./types";

/** A failed attempt, classified. Thrown inside an attempt; `runWithRetry` decides what follows. */
export class AttemptError extends Error {
  readonly type: LlmErrorType;
  readonly retryable: boolean;
  /** From Retry-After / retry-after-ms on a 429, in ms. */
  readonly retryAfterMs: number | null;
  readonly status: number | null;
  constructor(
    type: LlmErrorType,
    message: string,
    opts: { retryable?: boolean; retryAfterMs?: number | null; status?: number | null; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AttemptError";
    this.type = type;
    this.retryable = opts.retryable ?? isRetryableType(type);
    this.retryAfterMs = opts.retryAfterMs ?? null;
    this.status = opts.status ?? null;
  }
}

/** Timeouts, connection errors, 429, 5xx and garbled responses are retried; other 4xx and aborts are not. */
export function isRetryableType(type: LlmErrorType): boolean {
  return type !== "client_error" && type !== "aborted";
}

/** A call that failed for good (all attempts used, a non-retryable error, or cancelled). */
export class LlmError extends Error {
  readonly type: LlmErrorType;
  readonly attempts: number;
  readonly attemptErrors: LlmErrorType[];
  readonly status: number | null;
  readonly latencyMs: number;
  readonly totalMs: number;
  /** The raw body of the last response, when one arrived (set by the client). */
  responseText: string | null = null;
  constructor(
    type: LlmErrorType,
    message: string,
    info: {
      attempts: number;
      attemptErrors: LlmErrorType[];
      status?: number | null;
      latencyMs?: number;
      totalMs?: number;
      cause?: unknown;
    },
  ) {
    super(message, info.cause === undefined ? undefined : { cause: info.cause });
    this.name = "LlmError";
    this.type = type;
    this.attempts = info.attempts;
    this.attemptErrors = info.attemptErrors;
    this.status = info.status ?? null;
    this.latencyMs = info.latencyMs ?? 0;
    this.totalMs = info.totalMs ?? 0;
  }

  get retries(): number {
    return Math.max(0, this.attempts - 1);
  }
}

export function isLlmError(err: unknown): err is LlmError {
  return err instanceof LlmError;
}
