import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { Executor, errorOutcome, type CaseRunner } from "@/lib/runs/executor";
import { isLeaseOwnerDead, newLeaseOwnerId, parseLeaseOwnerId, processStartTicks } from "@/lib/runs/lease-owner";
import { getRun, startRun } from "@/lib/runs/service";
import { makeWorkspace, makeSuiteWithCases, waitFor } from "../helpers/factories";

const executors: Executor[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(executors.splice(0).map((e) => e.stop(100)));
  for (const c of children.splice(0)) c.kill("SIGKILL");
});

/** A process of this machine that we can end at will, and the lease owner id it would have had. */
async function otherProcess() {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  children.push(child);
  await new Promise((r) => child.once("spawn", r));
  const pid = child.pid!;
  const [host, , nonce, machine] = newLeaseOwnerId().split(":");
  const ownerId = `${host}:${pid}:${nonce}:${machine}:${processStartTicks(pid)}`;
  const end = async () => {
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
  };
  return { ownerId, pid, end };
}

describe("lease owner ids", () => {
  const self = newLeaseOwnerId();

  it("name host, pid, boot/pid namespace and start time", () => {
    const owner = parseLeaseOwnerId(self)!;
    expect(owner.pid).toBe(process.pid);
    expect(owner.machine).toMatch(/^[0-9a-f]{16}\.\d+$/);
    expect(owner.start).toBe(processStartTicks(process.pid));
  });

  it("prove dead only an exited process of this machine", async () => {
    const other = await otherProcess();
    expect(isLeaseOwnerDead(other.ownerId, self)).toBe(false);
    // The same pid started at another time: reused by another process, so the owner is gone.
    const reused = other.ownerId.replace(/:\d+$/, ":1");
    expect(isLeaseOwnerDead(reused, self)).toBe(true);
    await other.end();
    expect(isLeaseOwnerDead(other.ownerId, self)).toBe(true);
    // Not provable: another host, another boot or container, an id without the machine part.
    expect(isLeaseOwnerDead(other.ownerId.replace(/^[^:]+/, "elsewhere"), self)).toBe(false);
    expect(isLeaseOwnerDead(other.ownerId.replace(/:[0-9a-f]{16}\./, ":0000000000000000."), self)).toBe(false);
    expect(isLeaseOwnerDead(other.ownerId.split(":").slice(0, 3).join(":"), self)).toBe(false);
  });

  it("treat another executor of this process as alive", () => {
    expect(isLeaseOwnerDead(newLeaseOwnerId(), self)).toBe(false);
    expect(isLeaseOwnerDead(self, self)).toBe(false);
  });
});

describe("executor recovery of a dead owner on this machine", () => {
  it("takes the cases at once when the owner process has exited, never while it lives", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 4);
    const run = await startRun(ctx, suite.id, { concurrency: 4 }, "api");
    const other = await otherProcess();
    const hanging: CaseRunner = () => new Promise(() => {});
    // A long lease: only the proof of death can free these cases within the test.
    const dying = new Executor({ runner: hanging, workerId: other.ownerId, pollMs: 50, leaseMs: 120_000 });
    executors.push(dying);
    dying.start();
    await waitFor(
      async () => dying.activeCases,
      (n) => n === 4,
    );
    dying.kill();

    const executions = new Map<string, number>();
    const runner: CaseRunner = async (job) => {
      executions.set(job.caseResultId, (executions.get(job.caseResultId) ?? 0) + 1);
      return { ...errorOutcome("none", ""), status: "passed", errorMessage: null, errorType: null, actualResponse: "ok" };
    };
    const rescuer = new Executor({ runner, pollMs: 50, leaseMs: 120_000 });
    executors.push(rescuer);
    rescuer.start();
    await new Promise((r) => setTimeout(r, 1_000));
    expect(executions.size).toBe(0); // the owner still lives: its leases stand

    await other.end();
    const started = Date.now();
    const final = await waitFor(
      () => getRun(ctx, run.id),
      (r) => r.status === "completed",
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(final.passed_cases).toBe(4);
    expect([...executions.values()]).toEqual([1, 1, 1, 1]);
    const attempts = await db.caseResult.findMany({ where: { runId: run.id }, select: { attempts: true } });
    expect(attempts.map((a) => a.attempts)).toEqual([2, 2, 2, 2]);
  });
});
