import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { Executor, errorOutcome, type CaseOutcome, type CaseRunner } from "@/lib/runs/executor";
import { cancelRun, getRun, startRun } from "@/lib/runs/service";
import { makeWorkspace, makeSuiteWithCases, waitFor } from "../helpers/factories";

const executors: Executor[] = [];
afterEach(async () => {
  await Promise.all(executors.splice(0).map((e) => e.stop(100)));
});

function passedOutcome(): CaseOutcome {
  return { ...errorOutcome("none", ""), status: "passed", errorMessage: null, errorType: null, actualResponse: "ok", latencyMs: 5 };
}

/** A runner that records concurrency and executions per case result. */
function trackingRunner(delayMs: number) {
  const executions = new Map<string, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const runner: CaseRunner = async (job, _run, signal) => {
    executions.set(job.caseResultId, (executions.get(job.caseResultId) ?? 0) + 1);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, delayMs);
        signal.addEventListener("abort", () => {
          clearTimeout(t);
          reject(new Error("aborted"));
        });
      });
      return passedOutcome();
    } catch {
      return errorOutcome("cancelled", "Run cancelled while this case was running");
    } finally {
      inFlight--;
    }
  };
  return { runner, executions, max: () => maxInFlight };
}

function executor(runner: CaseRunner, opts: Partial<ConstructorParameters<typeof Executor>[0]> = {}) {
  const e = new Executor({ runner, pollMs: 50, leaseMs: 2_000, ...opts });
  executors.push(e);
  return e;
}

describe("executor", () => {
  it("keeps the run's concurrency bound across two workers and runs every case exactly once", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 30);
    const tracking = trackingRunner(40);
    const run = await startRun(ctx, suite.id, { concurrency: 4 }, "api");
    expect(run.status).toBe("pending");
    expect(run.total_cases).toBe(30);
    // Quotes in the worker ids: the claim inlines its values into one message, escaped.
    executor(tracking.runner, { workerId: "w1 o'brien" }).start();
    executor(tracking.runner, { workerId: "w2 \\'; --" }).start();
    const done = await waitFor(
      () => getRun(ctx, run.id),
      (r) => r.status === "completed",
    );
    expect(tracking.max()).toBeLessThanOrEqual(4);
    expect(tracking.max()).toBeGreaterThanOrEqual(2);
    expect(tracking.executions.size).toBe(30);
    expect([...tracking.executions.values()].every((n) => n === 1)).toBe(true);
    expect(done).toMatchObject({ passed_cases: 30, failed_cases: 0, error_cases: 0, skipped_cases: 0, pass_rate: 100 });
    expect(done.summary).toMatchObject({ total_tests: 30, passed: 30, pass_rate: 100 });
    const owners = await db.caseResult.groupBy({ by: ["status"], where: { runId: run.id }, _count: true });
    expect(owners).toEqual([{ status: "passed", _count: 30 }]);
  });

  it("cancels: no new cases start, in-flight ones are aborted, the run ends cancelled", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 20);
    const tracking = trackingRunner(5_000);
    const run = await startRun(ctx, suite.id, { concurrency: 3 }, "manual");
    const e = executor(tracking.runner, { heartbeatMs: 50 });
    e.start();
    await waitFor(
      async () => e.activeCases,
      (n) => n === 3,
    );
    const cancelled = await cancelRun(ctx, run.id);
    expect(cancelled.cancel_requested_at).not.toBeNull();
    const final = await waitFor(
      () => getRun(ctx, run.id),
      (r) => r.status === "cancelled",
    );
    expect(final.skipped_cases).toBe(17);
    expect(final.error_cases).toBe(3);
    expect(tracking.executions.size).toBe(3);
    expect(await db.caseResult.count({ where: { runId: run.id, status: { in: ["pending", "running"] } } })).toBe(0);
    await expect(cancelRun(ctx, run.id)).rejects.toThrow(/already cancelled/);
  });

  it("resumes cases of a worker that died once its lease expires", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 6);
    const run = await startRun(ctx, suite.id, { concurrency: 6 }, "api");
    const hanging: CaseRunner = (_job, _run, signal) =>
      new Promise((resolve) => signal.addEventListener("abort", () => resolve(passedOutcome())));
    const dying = executor(hanging, { workerId: "dying", leaseMs: 300 });
    dying.start();
    await waitFor(
      async () => dying.activeCases,
      (n) => n === 6,
    );
    dying.kill();
    expect((await getRun(ctx, run.id)).status).toBe("running");

    const tracking = trackingRunner(10);
    executor(tracking.runner, { workerId: "rescuer", leaseMs: 300 }).start();
    const final = await waitFor(
      () => getRun(ctx, run.id),
      (r) => r.status === "completed",
    );
    expect(final.passed_cases).toBe(6);
    expect(tracking.executions.size).toBe(6);
    const attempts = await db.caseResult.findMany({ where: { runId: run.id }, select: { attempts: true } });
    expect(attempts.map((a) => a.attempts)).toEqual([2, 2, 2, 2, 2, 2]);
  });

  it("fails a case with a reason after its worker died maxAttempts times, never leaving the run running", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 1);
    const run = await startRun(ctx, suite.id, {}, "api");
    const hanging: CaseRunner = () => new Promise(() => {});
    for (let i = 0; i < 2; i++) {
      const e = executor(hanging, { workerId: `dying-${i}`, leaseMs: 200, maxAttempts: 2 });
      e.start();
      await waitFor(
        async () => e.activeCases,
        (n) => n === 1,
      );
      e.kill();
    }
    const tracking = trackingRunner(10);
    executor(tracking.runner, { workerId: "observer", leaseMs: 200, maxAttempts: 2 }).start();
    const final = await waitFor(
      () => getRun(ctx, run.id),
      (r) => r.status === "completed",
    );
    expect(final.error_cases).toBe(1);
    expect(tracking.executions.size).toBe(0);
    const result = await db.caseResult.findFirstOrThrow({ where: { runId: run.id } });
    expect(result.errorType).toBe("worker_lost");
    expect(result.errorMessage).toMatch(/stopped 2 times/);
  });
});
