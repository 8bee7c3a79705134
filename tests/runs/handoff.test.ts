// The hand-off: a result write that also claims, for its run, as many pending cases as it wrote
// results, so a freed slot restarts after one round trip instead of a write and then a tick's
// claims. Driven through the ResultWriter and the claim SQL with no executor running (every count
// is what these calls did). ./handoff-executor.test.ts drives it through executors.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { claimCases, claimPairs, type ClaimLease } from "@/lib/runs/claims";
import { ResultWriter } from "@/lib/runs/result-writer";
import type { CaseJob } from "@/lib/runs/executor";
import { createComparison } from "@/lib/comparisons/service";
import { makeWorkspace } from "../helpers/factories";
import { makeSuiteWithCases } from "./helpers";
import { passedOutcome, pendingRun, statusCounts } from "./run-fixtures";

const lease = (workerId: string): ClaimLease => ({ workerId, leaseMs: 30_000, workspaceMaxRunning: null });

const passed = passedOutcome;

/**
 * A writer for `workerId` whose hand-off is asked for while `wanted()` says so; what it hands off
 * is collected, and the size of each hand-off (one per statement that handed cases off).
 */
function writer(workerId: string, wanted: () => boolean = () => true, from?: (runId: string) => number) {
  const launched: CaseJob[] = [];
  const handoffs: number[] = [];
  const w = new ResultWriter(workerId, {
    stopped: () => false,
    handoff: {
      leaseMs: 30_000,
      wanted,
      launch: (jobs) => {
        launched.push(...jobs);
        handoffs.push(jobs.length);
      },
      from,
    },
  });
  return { w, launched, handoffs };
}

describe("hand-off in the result write", () => {
  it("claims the next pending cases in order under the writer's lease, one per result written, the running count unchanged", async () => {
    const { ctx, run } = await pendingRun(8, 3);
    const jobs = await claimCases(lease("w1"), run.id, 3, ctx.workspaceId);
    expect(jobs.map((j) => j.position)).toEqual([0, 1, 2]);
    const { w, launched } = writer("w1");
    await Promise.all([w.write(jobs[0]!, passed(), 5), w.write(jobs[1]!, passed(), 5)]);
    expect(launched.map((j) => j.position).sort()).toEqual([3, 4]);
    expect(await statusCounts(run.id)).toEqual({ passed: 2, running: 3, pending: 3 });
    const handed = await db.caseResult.findMany({ where: { id: { in: launched.map((j) => j.caseResultId) } } });
    for (const row of handed) {
      expect(row).toMatchObject({ status: "running", leaseOwner: "w1", attempts: 1, stage: "executing_agent" });
      expect(row.startedAt).not.toBeNull();
      expect(row.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 20_000);
    }
    // What a claim returns: the job carries the case's snapshot and variables.
    expect(launched[0]).toMatchObject({ runId: run.id, workspaceId: ctx.workspaceId, variant: "baseline", attempts: 1 });
    expect((launched[0]!.caseSnapshot as { initial_message?: string }).initial_message).toBeTruthy();
  });

  it("reads the run's pending cases after the position the executor gives (Handoff.from), and from the first without one", async () => {
    const { ctx, run } = await pendingRun(10, 4);
    const [a, b, c] = await claimCases(lease("w1"), run.id, 3, ctx.workspaceId);
    // Positions 3 to 5 are still pending, below the mark: a hand-off reading after 5 takes 6.
    const after5 = writer(
      "w1",
      () => true,
      () => 5,
    );
    await after5.w.write(a!, passed(), 5);
    expect(after5.launched.map((j) => j.position)).toEqual([6]);
    // Without a mark (or -1) the read starts at the run's first pending case.
    const fromFirst = writer("w1");
    await fromFirst.w.write(b!, passed(), 5);
    expect(fromFirst.launched.map((j) => j.position)).toEqual([3]);
    const minusOne = writer(
      "w1",
      () => true,
      () => -1,
    );
    await minusOne.w.write(c!, passed(), 5);
    expect(minusOne.launched.map((j) => j.position)).toEqual([4]);
    // Nothing pending after the mark: nothing handed off, and the cases below it are left pending.
    const pastTheEnd = writer(
      "w1",
      () => true,
      () => 9,
    );
    await pastTheEnd.w.write(after5.launched[0]!, passed(), 5);
    expect(pastTheEnd.launched).toEqual([]);
    expect(await statusCounts(run.id)).toEqual({ passed: 4, running: 2, pending: 4 });
  });

  it("writes the results that finish in one turn of the event loop in one statement, and the ones finishing during it in the next", async () => {
    const { ctx, run } = await pendingRun(20, 8);
    const jobs = await claimCases(lease("w1"), run.id, 8, ctx.workspaceId);
    const { w, handoffs } = writer("w1");
    // Five cases started together end together: the first must not go alone with the rest waiting for its round trip.
    const first = jobs.slice(0, 5).map((j) => w.write(j, passed(), 5));
    // Three end a turn later, while that write is in flight: they go together after it.
    await new Promise((r) => setImmediate(r));
    const later = jobs.slice(5).map((j) => w.write(j, passed(), 5));
    await Promise.all([...first, ...later]);
    expect(handoffs).toEqual([5, 3]);
    expect(await statusCounts(run.id)).toEqual({ passed: 8, running: 8, pending: 4 });
  });

  it("hands off nothing when the executor does not ask, when the run was cancelled or is failing, or when the lease was lost", async () => {
    const { ctx, run } = await pendingRun(10, 2);
    const [a, b] = await claimCases(lease("w1"), run.id, 2, ctx.workspaceId);
    const notAsked = writer("w1", () => false);
    await notAsked.w.write(a!, passed(), 5);
    expect(notAsked.launched).toEqual([]);

    // The lease is someone else's now: nothing is written, so nothing is handed off.
    await db.caseResult.update({ where: { id: b!.caseResultId }, data: { leaseOwner: "w2" } });
    const lost = writer("w1");
    await lost.w.write(b!, passed(), 5);
    expect(lost.launched).toEqual([]);
    expect(await statusCounts(run.id)).toEqual({ passed: 1, running: 1, pending: 8 });

    const { ctx: ctx2, run: cancelled } = await pendingRun(5, 2);
    const [c] = await claimCases(lease("w1"), cancelled.id, 1, ctx2.workspaceId);
    await db.run.update({ where: { id: cancelled.id }, data: { cancelRequestedAt: new Date() } });
    const afterCancel = writer("w1");
    await afterCancel.w.write(c!, passed(), 5);
    expect(afterCancel.launched).toEqual([]);

    // A result that stops its run (runError) hands nothing off either: the run is failing.
    const { ctx: ctx3, run: failing } = await pendingRun(5, 2);
    const [d] = await claimCases(lease("w1"), failing.id, 1, ctx3.workspaceId);
    const stops = writer("w1");
    await stops.w.write(d!, { ...passed(), status: "error", runError: "The agent's model configuration was deleted" }, 5);
    expect(stops.launched).toEqual([]);
    expect(await db.caseResult.count({ where: { runId: failing.id, status: "running" } })).toBe(0);
  });

  it("never hands off a comparison's arm runs: their pairs are claimed through the comparison", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 4);
    const cmp = await createComparison(ctx, suite.id, { baseline: {}, variant: { temperature: 0.5 }, concurrency: 1 });
    const { pairs } = await claimPairs(lease("w1"), cmp.id, 1, ctx.workspaceId);
    expect(pairs).toHaveLength(1);
    const { w, launched } = writer("w1");
    for (const job of pairs[0]!) await w.write(job, passed(), 5);
    expect(launched).toEqual([]);
    expect(await db.caseResult.count({ where: { run: { comparisonId: cmp.id }, status: "running" } })).toBe(0);
  });

  it("claims every case once across workers handing off and claiming at once, never above the run's concurrency", async () => {
    const { ctx, run } = await pendingRun(60, 10);
    const workers = ["w1", "w2", "w3"].map((id) => ({ id, ...writer(id), held: [] as CaseJob[] }));
    const executions = new Map<string, number>();
    const take = (jobs: CaseJob[], held: CaseJob[]) => {
      for (const j of jobs) executions.set(j.caseResultId, (executions.get(j.caseResultId) ?? 0) + 1);
      held.push(...jobs);
    };
    for (const wk of workers) take(await claimCases(lease(wk.id), run.id, 4, ctx.workspaceId), wk.held);
    let maxRunning = 0;
    for (let round = 0; round < 40 && workers.some((wk) => wk.held.length > 0); round++) {
      await Promise.all(
        workers.map(async (wk) => {
          const done = wk.held.splice(0);
          wk.launched.length = 0;
          // Every worker writes what it holds (with the hand-off) while also claiming through the tick's path.
          const [, claimed] = await Promise.all([
            Promise.all(done.map((j) => wk.w.write(j, passed(), 5))),
            claimCases(lease(wk.id), run.id, 2, ctx.workspaceId),
          ]);
          take([...wk.launched, ...claimed], wk.held);
        }),
      );
      maxRunning = Math.max(maxRunning, await db.caseResult.count({ where: { runId: run.id, status: "running" } }));
    }
    expect(maxRunning).toBeLessThanOrEqual(10);
    expect(executions.size).toBe(60);
    expect([...executions.values()].every((n) => n === 1)).toBe(true);
    expect(await statusCounts(run.id)).toEqual({ passed: 60 });
    const attempts = await db.caseResult.findMany({ where: { runId: run.id }, select: { attempts: true } });
    expect(attempts.every((a) => a.attempts === 1)).toBe(true);
    expect((await db.run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("completed");
  });
});
