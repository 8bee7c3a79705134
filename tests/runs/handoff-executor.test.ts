// The hand-off (lib/runs/result-writer.ts) as the executor uses it: a lone run's freed slots restart
// from its result writes, and a run queued meanwhile stops that at once, so fair shares still hold.
// A file of its own: the executor claims every run in the database, and the SQL-level tests in
// ./handoff.test.ts leave runs with pending cases behind.
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { claimCases } from "@/lib/runs/claims";
import { Executor, type CaseJob, type CaseRunner } from "@/lib/runs/executor";
import { cancelRun, getRun, startRun } from "@/lib/runs/service";
import { makeWorkspace, waitFor } from "../helpers/factories";
import { makeSuiteWithCases } from "./helpers";
import { passedOutcome, pendingRun } from "./run-fixtures";

const passed = passedOutcome;

describe("hand-off in the executor", () => {
  const executors: Executor[] = [];
  afterEach(async () => {
    await Promise.all(executors.splice(0).map((e) => e.stop(100)));
  });

  function sleeper(ms: number) {
    const started: CaseJob[] = [];
    const runner: CaseRunner = async (job) => {
      started.push(job);
      await new Promise((r) => setTimeout(r, ms));
      return passed();
    };
    return { runner, started };
  }

  it("restarts a lone run's freed slots by hand-off: each case once, within its concurrency", async () => {
    const { ctx, run } = await pendingRun(40, 5);
    const s = sleeper(20);
    const e = new Executor({ runner: s.runner, maxSlots: 5, pollMs: 50, leaseMs: 5_000 });
    executors.push(e);
    let maxRunning = 0;
    const sampler = setInterval(
      () => void db.caseResult.count({ where: { runId: run.id, status: "running" } }).then((n) => (maxRunning = Math.max(maxRunning, n))),
      5,
    );
    e.start();
    const done = await waitFor(
      () => getRun(ctx, run.id),
      (r) => r.status === "completed",
      30_000,
    ).finally(() => clearInterval(sampler));
    expect(done.passed_cases).toBe(40);
    expect(new Set(s.started.map((j) => j.caseResultId)).size).toBe(40);
    expect(s.started).toHaveLength(40);
    expect(maxRunning).toBeLessThanOrEqual(5);
    // Most cases after the first wave started from a write's hand-off, not from a tick's claim.
    expect(e.handedOffCases).toBeGreaterThanOrEqual(20);
  });

  it("stops handing off when another workspace's run is queued: the newcomer gets freed slots at once", async () => {
    const a = await makeWorkspace("editor");
    const b = await makeWorkspace("editor");
    const big = await pendingRun(400, 4, a.ctx);
    const smallSuite = (await makeSuiteWithCases(b.ctx, 4)).suite;
    const s = sleeper(30);
    const e = new Executor({ runner: s.runner, maxSlots: 4, pollMs: 60_000, leaseMs: 5_000 });
    executors.push(e);
    e.start();
    // The big run holds every slot and hands them back to itself.
    await waitFor(
      async () => e.handedOffCases,
      (n) => n >= 8,
      10_000,
    );
    const startedBefore = s.started.length;
    const small = await startRun(b.ctx, smallSuite.id, { concurrency: 4 }, "api");
    await waitFor(
      () => getRun(b.ctx, small.id),
      (r) => r.status === "completed",
      10_000,
    );
    // With the poll a minute away, only the queued event (or a full tick's look at the candidates)
    // can have stopped the hand-off: the small run got its share of the slots (2 of 4) as the big
    // run's cases ended. Had the hand-off gone on, the big run would have started all its ~390
    // remaining cases first.
    const bigStartedMeanwhile = s.started.slice(startedBefore).filter((j) => j.runId === big.run.id).length;
    expect(bigStartedMeanwhile).toBeLessThan(100);
    expect((await getRun(a.ctx, big.run.id)).status).toBe("running");
    // Ended here, not by the teardown: a run left running would still be writing when the file's
    // database goes away.
    await cancelRun(a.ctx, big.run.id);
    await waitFor(
      () => getRun(a.ctx, big.run.id),
      (r) => r.status === "cancelled",
      10_000,
    );
  });

  /**
   * A run whose first case another worker holds, and hands back (pending again) once this
   * executor's hand-offs have passed position 10; returns that case's place (0-based) in the
   * order the executor started the run's cases.
   */
  async function stragglerRun(handoffRescanMs: number) {
    const { ctx, run } = await pendingRun(150, 3);
    const [ghost] = await claimCases({ workerId: "ghost", leaseMs: 60_000, workspaceMaxRunning: null }, run.id, 1, ctx.workspaceId);
    expect(ghost!.position).toBe(0);
    const s = sleeper(20);
    // The poll a minute away: only hand-offs, and the ticks of slots a hand-off did not refill, claim.
    const e = new Executor({ runner: s.runner, maxSlots: 3, pollMs: 60_000, leaseMs: 5_000, handoffRescanMs });
    executors.push(e);
    e.start();
    await waitFor(
      async () => Math.max(-1, ...s.started.map((j) => j.position)),
      (p) => p >= 10,
      10_000,
    );
    // As a stopping worker hands a case back.
    await db.caseResult.update({
      where: { id: ghost!.caseResultId },
      data: { status: "pending", leaseOwner: null, leaseExpiresAt: null, attempts: 0, stage: "pending" },
    });
    const done = await waitFor(
      () => getRun(ctx, run.id),
      (r) => r.status === "completed",
      30_000,
    );
    expect(done.passed_cases).toBe(150);
    const mine = s.started.filter((j) => j.runId === run.id);
    // Every case once here, the one handed back included.
    expect(mine).toHaveLength(150);
    expect(new Set(mine.map((j) => j.caseResultId)).size).toBe(150);
    return mine.findIndex((j) => j.position === 0);
  }

  it("hands off the cases after the last position it launched: a case made pending again below it waits for the rescan", async () => {
    // No rescan within the run: the claimed range is never read again, so the case handed back
    // is found only when nothing is left after the mark (a freed slot's tick claims it).
    expect(await stragglerRun(60_000)).toBeGreaterThanOrEqual(140);
  });

  it("reads a run from its first pending case again every rescan period: a case handed back below the mark runs soon, once", async () => {
    // 150 cases of 20 ms at 3 at once take ≥ 1 s; handed back after ~10 of them, the case runs
    // within a rescan (100 ms) and a case's time, long before the run's last cases start.
    expect(await stragglerRun(100)).toBeLessThan(100);
  });

  it("two executors handing off on one run: every case once, one attempt each, never above the run's concurrency", async () => {
    const { ctx, run } = await pendingRun(80, 6);
    const s = sleeper(15);
    for (let i = 0; i < 2; i++) executors.push(new Executor({ runner: s.runner, maxSlots: 4, pollMs: 50, leaseMs: 5_000 }));
    let maxRunning = 0;
    const sampler = setInterval(
      () => void db.caseResult.count({ where: { runId: run.id, status: "running" } }).then((n) => (maxRunning = Math.max(maxRunning, n))),
      5,
    );
    for (const e of executors) e.start();
    const done = await waitFor(
      () => getRun(ctx, run.id),
      (r) => r.status === "completed",
      30_000,
    ).finally(() => clearInterval(sampler));
    expect(done.passed_cases).toBe(80);
    const mine = s.started.filter((j) => j.runId === run.id);
    expect(mine).toHaveLength(80);
    expect(new Set(mine.map((j) => j.caseResultId)).size).toBe(80);
    expect(maxRunning).toBeLessThanOrEqual(6);
    const rows = await db.caseResult.findMany({ where: { runId: run.id }, select: { attempts: true, leaseOwner: true, startedAt: true } });
    expect(rows.every((r) => r.attempts === 1 && r.leaseOwner === null && r.startedAt !== null)).toBe(true);
    // The hand-off was in play (how often depends on how the two interleave).
    expect(executors.reduce((n, e) => n + e.handedOffCases, 0)).toBeGreaterThan(0);
  });
});
