// Fair slot sharing: a run started after a huge one is claimed in the same
// tick and shares the slots; runs of one workspace share too; comparisons take part; and the
// per-workspace cap holds across processes. Assertions are on claim order and on counts sampled
// from the database, never on time.
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { Executor, errorOutcome, type CaseJob, type CaseRunner } from "@/lib/runs/executor";
import { getRun, startRun } from "@/lib/runs/service";
import { createComparison, getComparison } from "@/lib/comparisons/service";
import { makeWorkspace, makeSuiteWithCases, waitFor } from "../helpers/factories";

const executors: Executor[] = [];
afterEach(async () => {
  await Promise.all(executors.splice(0).map((e) => e.stop(100)));
});

/** A runner that sleeps `delayMs`, recording the order cases were started in and how many of each workspace ran at once. */
function sequenceRunner(delayMs: number) {
  const started: CaseJob[] = [];
  const executions = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const maxInFlight = new Map<string, number>();
  const runner: CaseRunner = async (job) => {
    started.push(job);
    executions.set(job.caseResultId, (executions.get(job.caseResultId) ?? 0) + 1);
    const n = (inFlight.get(job.workspaceId) ?? 0) + 1;
    inFlight.set(job.workspaceId, n);
    maxInFlight.set(job.workspaceId, Math.max(maxInFlight.get(job.workspaceId) ?? 0, n));
    await new Promise((r) => setTimeout(r, delayMs));
    inFlight.set(job.workspaceId, inFlight.get(job.workspaceId)! - 1);
    return { ...errorOutcome("none", ""), status: "passed", errorMessage: null, errorType: null, actualResponse: "ok", latencyMs: delayMs };
  };
  return { runner, started, executions, maxInFlight };
}

function executor(runner: CaseRunner, opts: Partial<ConstructorParameters<typeof Executor>[0]> = {}) {
  const e = new Executor({ runner, pollMs: 50, leaseMs: 5_000, ...opts });
  executors.push(e);
  return e;
}

const completed = (ctx: Parameters<typeof getRun>[0], id: string) =>
  waitFor(
    () => getRun(ctx, id),
    (r) => r.status === "completed",
    30_000,
  );

describe("fair slot sharing", () => {
  it("claims a small run created after a big one in the first tick, and runs it on its share of the slots", async () => {
    const a = await makeWorkspace("editor");
    const b = await makeWorkspace("editor");
    const big = await startRun(a.ctx, (await makeSuiteWithCases(a.ctx, 40)).suite.id, { concurrency: 8 }, "api");
    const small = await startRun(b.ctx, (await makeSuiteWithCases(b.ctx, 4)).suite.id, { concurrency: 8 }, "api");
    const seq = sequenceRunner(60);
    executor(seq.runner, { maxSlots: 4 }).start();
    await completed(b.ctx, small.id);
    await completed(a.ctx, big.id);

    const order = seq.started.map((j) => (j.runId === small.id ? "small" : "big"));
    // First-come would give the big run all 4 slots and the small one none until the big run ran out.
    expect(order.slice(0, 4).filter((r) => r === "small")).toHaveLength(2);
    // The small run keeps half the slots: its last case starts before the big run's 9th.
    const lastSmall = order.lastIndexOf("small");
    expect(order.slice(0, lastSmall).filter((r) => r === "big").length).toBeLessThanOrEqual(8);
    expect(seq.executions.size).toBe(44);
    expect([...seq.executions.values()].every((n) => n === 1)).toBe(true);
  });

  it("shares one workspace's slots across its runs round-robin", async () => {
    const { ctx } = await makeWorkspace("editor");
    const first = await startRun(ctx, (await makeSuiteWithCases(ctx, 30)).suite.id, { concurrency: 6 }, "api");
    const second = await startRun(ctx, (await makeSuiteWithCases(ctx, 30)).suite.id, { concurrency: 6 }, "api");
    const third = await startRun(ctx, (await makeSuiteWithCases(ctx, 3)).suite.id, { concurrency: 6 }, "api");
    const seq = sequenceRunner(40);
    executor(seq.runner, { maxSlots: 6 }).start();
    await Promise.all([first, second, third].map((r) => completed(ctx, r.id)));

    const firstTick = seq.started.slice(0, 6).map((j) => j.runId);
    expect(firstTick.filter((id) => id === first.id)).toHaveLength(2);
    expect(firstTick.filter((id) => id === second.id)).toHaveLength(2);
    expect(firstTick.filter((id) => id === third.id)).toHaveLength(2);
    expect(seq.executions.size).toBe(63);
  });

  it("lets a comparison take part in the same rotation", async () => {
    const a = await makeWorkspace("editor");
    const b = await makeWorkspace("editor");
    const big = await startRun(a.ctx, (await makeSuiteWithCases(a.ctx, 30)).suite.id, { concurrency: 8 }, "api");
    const made = await makeSuiteWithCases(b.ctx, 3);
    const cmp = await createComparison(b.ctx, made.suite.id, {
      baseline: {},
      variant: { model_config_id: made.modelConfig.id },
      ordering: "concurrent",
      reset_window_ms: 0,
      concurrency: 3,
    });
    const seq = sequenceRunner(40);
    executor(seq.runner, { maxSlots: 4 }).start();
    await waitFor(
      () => getComparison(b.ctx, cmp.id),
      (c) => c.status === "completed",
      30_000,
    );
    await completed(a.ctx, big.id);
    // A concurrent pair takes one slot per arm: the first tick gives it 2 of the 4 slots.
    const firstTick = seq.started.slice(0, 4);
    expect(firstTick.filter((j) => j.workspaceId === b.ctx.workspaceId)).toHaveLength(2);
    expect(new Set(firstTick.filter((j) => j.workspaceId === b.ctx.workspaceId).map((j) => j.position)).size).toBe(1);
    expect(seq.executions.size).toBe(36);
  });

  it("holds ASSAY_WORKSPACE_MAX_RUNNING across two workers, sampled from the database", async () => {
    const capped = await makeWorkspace("editor");
    const other = await makeWorkspace("editor");
    const runs = [
      { ctx: capped.ctx, run: await startRun(capped.ctx, (await makeSuiteWithCases(capped.ctx, 12)).suite.id, { concurrency: 5 }, "api") },
      { ctx: capped.ctx, run: await startRun(capped.ctx, (await makeSuiteWithCases(capped.ctx, 12)).suite.id, { concurrency: 5 }, "api") },
      { ctx: other.ctx, run: await startRun(other.ctx, (await makeSuiteWithCases(other.ctx, 12)).suite.id, { concurrency: 5 }, "api") },
    ];
    const seq = sequenceRunner(50);
    executor(seq.runner, { workerId: "w1", maxSlots: 6, workspaceMaxRunning: 3 }).start();
    executor(seq.runner, { workerId: "w2", maxSlots: 6, workspaceMaxRunning: 3 }).start();

    let sampledMax = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [row] = await db.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM "CaseResult" WHERE "workspaceId" = ${capped.ctx.workspaceId}::uuid AND "status" = 'running'`;
        sampledMax = Math.max(sampledMax, row?.n ?? 0);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    await Promise.all(runs.map(({ ctx, run }) => completed(ctx, run.id)));
    sampling = false;
    await sampler;

    expect(sampledMax).toBeGreaterThan(0);
    expect(sampledMax).toBeLessThanOrEqual(3);
    expect(seq.maxInFlight.get(capped.ctx.workspaceId)).toBeLessThanOrEqual(3);
    expect(seq.maxInFlight.get(other.ctx.workspaceId)).toBeLessThanOrEqual(3);
    expect(seq.executions.size).toBe(36);
    expect([...seq.executions.values()].every((n) => n === 1)).toBe(true);
  });
});
