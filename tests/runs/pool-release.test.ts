import { afterEach, describe, expect, it } from "vitest";
import { executorPool, pool } from "@/lib/db";
import { Executor } from "@/lib/runs/executor";
import { createCaseRunner } from "@/lib/runs/case-runner";
import { cancelRun, getRun, startRun } from "@/lib/runs/service";
import { withFakeOpenAI } from "../helpers/run-stack";
import { makeSuiteWithCases, makeWorkspace, waitFor } from "../helpers/factories";

/**
 * Every way a run's cases stop — finished, cancelled, the executor stopped with cases in flight,
 * the executor killed — gives back every database connection it borrowed. A connection never
 * returned is invisible until the pool is closed (shutdown, a test file's teardown), where
 * `pool.end()` then waits for it for ever; and on a busy server it is one connection fewer each time.
 */

const fake = withFakeOpenAI({ latencyMs: 150 });
const executors: Executor[] = [];
afterEach(async () => {
  await Promise.all(executors.splice(0).map((e) => e.stop(200)));
});

function executor() {
  const e = new Executor({ runner: createCaseRunner(), pollMs: 50, heartbeatMs: 50, leaseMs: 2_000 });
  executors.push(e);
  e.start();
  return e;
}

/** Connections lent out and not yet returned, over the request pool and the executor's pool. */
function lent() {
  const ownPool = executorPool();
  return pool.totalCount - pool.idleCount + (ownPool.totalCount - ownPool.idleCount);
}

async function expectAllReturned() {
  await waitFor(
    async () => lent(),
    (n) => n === 0,
    5_000,
  );
  expect(lent()).toBe(0);
}

async function runningSuite(cases: number, concurrency: number) {
  const { ctx } = await makeWorkspace("editor");
  const { suite } = await makeSuiteWithCases(ctx, cases, { baseUrl: fake.url });
  const run = await startRun(ctx, suite.id, { concurrency }, "api");
  // Mid-run: some results written, some cases still at the model.
  await waitFor(
    () => getRun(ctx, run.id),
    (r) => r.passed_cases + r.failed_cases + r.error_cases >= concurrency,
    15_000,
  );
  return { ctx, run };
}

describe("database connections after a run's cases stop", () => {
  it("are all returned when the run completes", async () => {
    const e = executor();
    const { ctx, run } = await runningSuite(12, 4);
    await waitFor(
      () => getRun(ctx, run.id),
      (r) => r.status === "completed",
      15_000,
    );
    await waitFor(
      async () => e.activeCases,
      (n) => n === 0,
      5_000,
    );
    await expectAllReturned();
  });

  it("are all returned when the run is cancelled mid-run", async () => {
    executor();
    const { ctx, run } = await runningSuite(30, 6);
    await cancelRun(ctx, run.id);
    const ended = await waitFor(
      () => getRun(ctx, run.id),
      (r) => r.status === "cancelled",
      15_000,
    );
    expect(ended.skipped_cases).toBeGreaterThan(0);
    await expectAllReturned();
  });

  it("are all returned when the executor stops with cases at the model (they are handed back)", async () => {
    const e = executor();
    const { ctx, run } = await runningSuite(30, 6);
    expect(e.activeCases).toBeGreaterThan(0);
    // A grace shorter than a call: the cases in flight are aborted and handed back.
    await e.stop(20);
    await expectAllReturned();
    // Handed back, not finished: the run waits for another executor.
    const after = await getRun(ctx, run.id);
    expect(after.passed_cases + after.failed_cases + after.error_cases).toBeLessThan(30);
  });

  it("are all returned when the executor is killed with cases at the model", async () => {
    const e = executor();
    await runningSuite(30, 6);
    expect(e.activeCases).toBeGreaterThan(0);
    e.kill();
    await expectAllReturned();
  });
});
