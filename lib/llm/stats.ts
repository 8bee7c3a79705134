import type { CallRecord, LlmErrorType } from "./types";

/**
 * The A/B engine's ExecutionStats, as plain JSON (stored in a run's summary). Counting rules:
 * - invocations count logical calls (all attempts of one call are one invocation);
 * - `retry_successes` counts calls that succeeded after N retries, keyed by N ("1", "2");
 * - `timeouts` and `errors_by_type` count failed attempts, so a call that timed out twice and
 *   then succeeded adds 2 timeouts and is still a successful invocation;
 * - `final_errors_by_type` counts failed invocations by their final error type.
 * Cached calls are counted apart and not as invocations.
 */
export type ExecutionStatsJson = {
  total_invocations: number;
  successful_invocations: number;
  failed_invocations: number;
  cached_calls: number;
  total_retries: number;
  retry_successes: Record<string, number>;
  timeouts: number;
  errors_by_type: Partial<Record<LlmErrorType, number>>;
  final_errors_by_type: Partial<Record<LlmErrorType, number>>;
  by_purpose: Record<string, { invocations: number; failed: number; retries: number }>;
};

export function emptyStats(): ExecutionStatsJson {
  return {
    total_invocations: 0,
    successful_invocations: 0,
    failed_invocations: 0,
    cached_calls: 0,
    total_retries: 0,
    retry_successes: {},
    timeouts: 0,
    errors_by_type: {},
    final_errors_by_type: {},
    by_purpose: {},
  };
}

export class ExecutionStats {
  readonly data: ExecutionStatsJson;

  constructor(data?: ExecutionStatsJson) {
    this.data = data ? mergeStats(emptyStats(), data) : emptyStats();
  }

  static fromJSON(value: unknown): ExecutionStats {
    return new ExecutionStats(isStatsJson(value) ? value : undefined);
  }

  /** Adds one call, as reported through `onRecord`. */
  record(call: Pick<CallRecord, "purpose" | "attempts" | "attemptErrors" | "errorType" | "cached">): this {
    const d = this.data;
    if (call.cached) {
      d.cached_calls++;
      return this;
    }
    d.total_invocations++;
    const retries = Math.max(0, call.attempts - 1);
    d.total_retries += retries;
    for (const t of call.attemptErrors) {
      d.errors_by_type[t] = (d.errors_by_type[t] ?? 0) + 1;
      if (t === "timeout") d.timeouts++;
    }
    const purpose = (d.by_purpose[call.purpose] ??= { invocations: 0, failed: 0, retries: 0 });
    purpose.invocations++;
    purpose.retries += retries;
    if (call.errorType) {
      d.failed_invocations++;
      purpose.failed++;
      d.final_errors_by_type[call.errorType] = (d.final_errors_by_type[call.errorType] ?? 0) + 1;
    } else {
      d.successful_invocations++;
      if (retries > 0) d.retry_successes[String(retries)] = (d.retry_successes[String(retries)] ?? 0) + 1;
    }
    return this;
  }

  merge(other: ExecutionStats | ExecutionStatsJson): this {
    mergeStats(this.data, other instanceof ExecutionStats ? other.data : other);
    return this;
  }

  successRate(): number {
    const total = this.data.successful_invocations + this.data.failed_invocations;
    return total === 0 ? 0 : this.data.successful_invocations / total;
  }

  toJSON(): ExecutionStatsJson {
    return structuredClone(this.data);
  }
}

/** Adds `src` into `dst` (mutates and returns `dst`). */
export function mergeStats(dst: ExecutionStatsJson, src: ExecutionStatsJson): ExecutionStatsJson {
  dst.total_invocations += src.total_invocations;
  dst.successful_invocations += src.successful_invocations;
  dst.failed_invocations += src.failed_invocations;
  dst.cached_calls += src.cached_calls ?? 0;
  dst.total_retries += src.total_retries;
  dst.timeouts += src.timeouts;
  addCounts(dst.retry_successes, src.retry_successes);
  addCounts(dst.errors_by_type, src.errors_by_type);
  addCounts(dst.final_errors_by_type, src.final_errors_by_type ?? {});
  for (const [k, v] of Object.entries(src.by_purpose ?? {})) {
    const p = (dst.by_purpose[k] ??= { invocations: 0, failed: 0, retries: 0 });
    p.invocations += v.invocations;
    p.failed += v.failed;
    p.retries += v.retries;
  }
  return dst;
}

function addCounts(dst: Record<string, number>, src: Record<string, number | undefined>) {
  for (const [k, v] of Object.entries(src)) dst[k] = (dst[k] ?? 0) + (v ?? 0);
}

function isStatsJson(value: unknown): value is ExecutionStatsJson {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.total_invocations === "number" && typeof v.errors_by_type === "object" && typeof v.retry_successes === "object";
}
