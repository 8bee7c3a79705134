import type { LlmError } from "./errors";
import type { RetryOutcome } from "./retry";
import type { CallRecord } from "./types";

/**
 * How a finished call ended, as its CallRecord keeps it: from the retry loop's result when an
 * attempt succeeded, from the LlmError that ended it otherwise. The LLM client and the HTTP agent
 * record their calls the same way.
 */
export type CallOutcome = Pick<
  CallRecord,
  "error" | "errorType" | "status" | "attempts" | "retries" | "attemptErrors" | "latencyMs" | "totalMs"
>;

/** What a call's record knows before its first attempt: what is asked of whom, and when. Not a cache hit. */
export function startedCall(
  call: Pick<CallRecord, "purpose" | "model" | "endpointId" | "request">,
): Omit<CallRecord, "response" | keyof CallOutcome> {
  return { ...call, cached: false, startedAt: new Date().toISOString() };
}

/** A call that succeeded after `out.attempts` attempts; `status` is the last response's. */
export function succeededCall(out: Omit<RetryOutcome<unknown>, "value">, status: number | null): CallOutcome {
  return {
    error: null,
    errorType: null,
    status,
    attempts: out.attempts,
    retries: out.attempts - 1,
    attemptErrors: out.attemptErrors,
    latencyMs: Math.round(out.latencyMs),
    totalMs: Math.round(out.totalMs),
  };
}

/** A call that failed for good; `status` is the last response's, when one arrived. */
export function failedCall(err: LlmError, status: number | null): CallOutcome {
  return {
    error: err.message,
    errorType: err.type,
    status,
    attempts: err.attempts,
    retries: err.retries,
    attemptErrors: err.attemptErrors,
    latencyMs: Math.round(err.latencyMs),
    totalMs: Math.round(err.totalMs),
  };
}
