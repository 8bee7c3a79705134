import { describe, expect, it } from "vitest";
import { Semaphore } from "@/lib/llm/concurrency";
import { AttemptError, LlmError } from "@/lib/llm/errors";
import { backoffDelayMs, DEFAULT_RETRY_POLICY, parseRetryAfter, runWithRetry } from "@/lib/llm/retry";
import { ExecutionStats } from "@/lib/llm/stats";

describe("backoff and Retry-After", () => {
  it("doubles from 100 ms", () => {
    expect([0, 1, 2].map((i) => backoffDelayMs(DEFAULT_RETRY_POLICY, i))).toEqual([100, 200, 400]);
    expect(DEFAULT_RETRY_POLICY).toMatchObject({ maxAttempts: 3, timeoutMs: 30_000 });
  });

  it("reads seconds, milliseconds and HTTP dates", () => {
    const now = Date.parse("2030-01-01T00:00:00Z");
    expect(parseRetryAfter(new Headers({ "retry-after": "2" }), now)).toBe(2000);
    expect(parseRetryAfter(new Headers({ "retry-after": "0.5" }), now)).toBe(500);
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "250", "retry-after": "9" }), now)).toBe(250);
    expect(parseRetryAfter(new Headers({ "retry-after": "Tue, 01 Jan 2030 00:00:03 GMT" }), now)).toBe(3000);
    expect(parseRetryAfter(new Headers({ "retry-after": "soon" }), now)).toBeNull();
    expect(parseRetryAfter(new Headers(), now)).toBeNull();
  });

  it("caps a huge Retry-After at maxRetryAfterMs", async () => {
    let calls = 0;
    const started = performance.now();
    const out = await runWithRetry(
      async () => {
        if (calls++ === 0) throw new AttemptError("rate_limited", "slow down", { retryAfterMs: 3_600_000, status: 429 });
        return "ok";
      },
      { policy: { maxRetryAfterMs: 150 } },
    );
    expect(out).toMatchObject({ value: "ok", attempts: 2, attemptErrors: ["rate_limited"] });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(145);
    // Capped at 150 ms, nowhere near the hour asked for.
    expect(elapsed).toBeLessThan(5_000);
  });

  it("classifies unknown errors as connection errors and never retries client errors", async () => {
    let calls = 0;
    const err = await runWithRetry(
      async () => {
        calls++;
        throw new AttemptError("client_error", "bad", { status: 422 });
      },
      { policy: { initialDelayMs: 1 } },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect(calls).toBe(1);

    const err2 = (await runWithRetry(
      async () => {
        throw new Error("socket hang up");
      },
      { policy: { initialDelayMs: 1 } },
    ).catch((e: unknown) => e)) as LlmError;
    expect(err2.type).toBe("connection");
    expect(err2.attemptErrors).toEqual(["connection", "connection", "connection"]);
  });
});

describe("Semaphore", () => {
  it("bounds holders, queues the rest in order and lets a waiter give up", async () => {
    const sem = new Semaphore(2);
    const r1 = await sem.acquire();
    const r2 = await sem.acquire();
    const order: number[] = [];
    const w3 = sem.acquire().then((r) => (order.push(3), r));
    const controller = new AbortController();
    const w4 = sem.acquire(controller.signal);
    const w5 = sem.acquire().then((r) => (order.push(5), r));
    expect(sem.active).toBe(2);
    expect(sem.waiting).toBe(3);
    controller.abort();
    await expect(w4).rejects.toMatchObject({ type: "aborted" });
    r1();
    r1(); // releasing twice is a no-op
    const r3 = await w3;
    expect(sem.active).toBe(2);
    r2();
    await w5;
    expect(order).toEqual([3, 5]);
    r3();
    expect(sem.active).toBe(1);
  });

  it("raising the limit admits waiters", async () => {
    const sem = new Semaphore(1);
    await sem.acquire();
    let admitted = false;
    const w = sem.acquire().then(() => (admitted = true));
    sem.limit = 2;
    await w;
    expect(admitted).toBe(true);
    expect(() => (sem.limit = 0)).toThrow(RangeError);
  });
});

describe("ExecutionStats", () => {
  const call = (over: Partial<Parameters<ExecutionStats["record"]>[0]>) => ({
    purpose: "agent" as const,
    attempts: 1,
    attemptErrors: [],
    errorType: null,
    cached: false,
    ...over,
  });

  it("counts invocations, retry successes by retry count, timeouts and errors by type", () => {
    const s = new ExecutionStats();
    s.record(call({}));
    s.record(call({ attempts: 2, attemptErrors: ["timeout"] }));
    s.record(call({ attempts: 3, attemptErrors: ["rate_limited", "server_error"], purpose: "judge" }));
    s.record(call({ attempts: 3, attemptErrors: ["timeout", "timeout", "timeout"], errorType: "timeout" }));
    s.record(call({ cached: true, attempts: 0 }));
    const j = s.toJSON();
    expect(j).toMatchObject({
      total_invocations: 4,
      successful_invocations: 3,
      failed_invocations: 1,
      cached_calls: 1,
      total_retries: 5,
      retry_successes: { "1": 1, "2": 1 },
      timeouts: 4,
      errors_by_type: { timeout: 4, rate_limited: 1, server_error: 1 },
      final_errors_by_type: { timeout: 1 },
    });
    expect(j.by_purpose.judge).toEqual({ invocations: 1, failed: 0, retries: 2 });
    expect(s.successRate()).toBe(0.75);
  });

  it("merges and survives a JSON round trip", () => {
    const a = new ExecutionStats().record(call({ attempts: 2, attemptErrors: ["connection"] }));
    const b = new ExecutionStats().record(call({ attempts: 1, errorType: "client_error", attemptErrors: ["client_error"] }));
    const merged = ExecutionStats.fromJSON(JSON.parse(JSON.stringify(a))).merge(JSON.parse(JSON.stringify(b)));
    expect(merged.toJSON()).toMatchObject({
      total_invocations: 2,
      successful_invocations: 1,
      failed_invocations: 1,
      errors_by_type: { connection: 1, client_error: 1 },
      retry_successes: { "1": 1 },
    });
    expect(a.toJSON().total_invocations).toBe(1);
    expect(ExecutionStats.fromJSON(null).toJSON().total_invocations).toBe(0);
  });
});
