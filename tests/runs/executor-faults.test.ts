import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { Executor, type CaseRunner } from "@/lib/runs/executor";
import { createCaseRunner } from "@/lib/runs/case-runner";
import { getRun, startRun } from "@/lib/runs/service";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { withFakeOpenAI } from "../helpers/run-stack";
import { makeWorkspace, makeSuiteWithCases, waitFor } from "../helpers/factories";
import { passedOutcome } from "./run-fixtures";

const fake = withFakeOpenAI();

const executors: Executor[] = [];
afterEach(async () => {
  await Promise.all(executors.splice(0).map((e) => e.stop(100)));
});

function executor(runner: CaseRunner, opts: Partial<ConstructorParameters<typeof Executor>[0]> = {}) {
  const e = new Executor({ runner, pollMs: 30, leaseMs: 2_000, ...opts });
  executors.push(e);
  return e;
}

const passed = passedOutcome;
const finished = (s: string) => ["completed", "failed", "cancelled"].includes(s);
/** The run once it has ended, whichever way. */
const untilFinished = (ctx: WorkspaceContext, runId: string) =>
  waitFor(
    () => getRun(ctx, runId),
    (r) => finished(r.status),
    10_000,
  );

describe("executor faults", () => {
  it("stores an error result when the database rejects a case result, and the run still ends", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 4);
    // 3,000,000,000 does not fit PostgreSQL's int: the result write fails for case 2 only.
    const runner: CaseRunner = async (job) => (job.position === 2 ? { ...passed(), promptTokens: 3_000_000_000 } : passed());
    const run = await startRun(ctx, suite.id, { concurrency: 2 }, "api");
    executor(runner).start();
    const done = await untilFinished(ctx, run.id);
    expect(done).toMatchObject({ status: "completed", passed_cases: 3, error_cases: 1 });
    const bad = await db.caseResult.findFirstOrThrow({ where: { runId: run.id, position: 2 } });
    expect(bad).toMatchObject({ status: "error", errorType: "persist", leaseOwner: null });
    expect(bad.errorMessage).toMatch(/could not be saved \(database error 22003\)/);
  });

  it("writes results finishing together in batches, and a refused value errors only its own case", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 12);
    // All twelve finish in the same moment, so most of them share a write; case 5's value is refused.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started = 0;
    const runner: CaseRunner = async (job) => {
      if (++started === 12) release();
      await gate;
      return job.position === 5 ? { ...passed(), promptTokens: 3_000_000_000 } : { ...passed(), promptTokens: 2, completionTokens: 1 };
    };
    const run = await startRun(ctx, suite.id, { concurrency: 12 }, "api");
    executor(runner).start();
    const done = await untilFinished(ctx, run.id);
    expect(done).toMatchObject({ status: "completed", passed_cases: 11, error_cases: 1 });
    const rows = await db.caseResult.findMany({ where: { runId: run.id }, orderBy: { position: "asc" } });
    expect(rows.map((r) => r.status)).toEqual(rows.map((r) => (r.position === 5 ? "error" : "passed")));
    expect(rows.every((r) => r.leaseOwner === null && r.completedAt !== null)).toBe(true);
    const totals = await db.run.findUniqueOrThrow({ where: { id: run.id }, select: { promptTokens: true, completionTokens: true } });
    expect(totals).toEqual({ promptTokens: 22, completionTokens: 11 });
  });

  it("heartbeats extend only the leases of cases still in flight in this process", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 2);
    const run = await startRun(ctx, suite.id, { concurrency: 2 }, "api");
    // Case 1 carries this worker's lease but nothing in this process runs it (a write that was lost).
    const orphan = await db.caseResult.findFirstOrThrow({ where: { runId: run.id, position: 1 } });
    await db.caseResult.update({
      where: { id: orphan.id },
      data: { status: "running", leaseOwner: "hb-worker", leaseExpiresAt: new Date(Date.now() + 300), attempts: 1 },
    });
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    const runs = new Map<number, number>();
    const runner: CaseRunner = async (job, _run, signal) => {
      runs.set(job.position, (runs.get(job.position) ?? 0) + 1);
      if (job.position === 0) await new Promise<void>((r) => (hold.then(r), signal.addEventListener("abort", () => r())));
      return passed();
    };
    executor(runner, { workerId: "hb-worker", heartbeatMs: 50, leaseMs: 1_000 }).start();
    // The heartbeat keeps case 0 alive; case 1's lease runs out, recovery hands it back and it runs.
    await waitFor(
      () => db.caseResult.findUniqueOrThrow({ where: { id: orphan.id } }),
      (c) => c.status === "passed",
      8_000,
    );
    expect(runs.get(1)).toBe(1);
    const inFlight = await db.caseResult.findFirstOrThrow({ where: { runId: run.id, position: 0 } });
    expect(inFlight.status).toBe("running");
    expect(inFlight.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    release();
    await waitFor(
      () => getRun(ctx, run.id),
      (r) => r.status === "completed",
    );
  });

  it("after a crash, a run with a cancel request ends cancelled and its recovered cases are skipped", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 3);
    const run = await startRun(ctx, suite.id, { concurrency: 3 }, "api");
    // The state a SIGKILLed worker leaves: cases running under its lease, then a cancel request
    // that no live process saw (cancelRun skips only pending cases).
    await db.caseResult.updateMany({
      where: { runId: run.id },
      data: { status: "running", leaseOwner: "gone-host:4242:dead", leaseExpiresAt: new Date(Date.now() - 1_000), attempts: 1 },
    });
    await db.run.update({ where: { id: run.id }, data: { status: "running", startedAt: new Date(), cancelRequestedAt: new Date() } });
    await executor(async () => passed()).recoverExpired();
    const after = await getRun(ctx, run.id);
    expect(after).toMatchObject({ status: "cancelled", skipped_cases: 3, passed_cases: 0 });
    const cases = await db.caseResult.findMany({ where: { runId: run.id } });
    expect(cases).toHaveLength(3);
    expect(cases.every((c) => c.status === "skipped" && c.leaseOwner === null && c.completedAt !== null)).toBe(true);
  });

  it("fails the run with a message when its judge model configuration was deleted", async () => {
    const { ctx } = await makeWorkspace("admin");
    const { suite } = await makeSuiteWithCases(ctx, 5, { baseUrl: fake.url });
    const judge = await db.modelConfig.create({
      data: { workspaceId: ctx.workspaceId, name: "the judge", baseUrl: fake.url, model: "judge-model" },
    });
    await db.suite.update({ where: { id: suite.id }, data: { llmJudgeModelConfigId: judge.id } });
    const run = await startRun(ctx, suite.id, { concurrency: 1 }, "api");
    await db.modelConfig.delete({ where: { id: judge.id } });
    executor(createCaseRunner()).start();
    const done = await untilFinished(ctx, run.id);
    expect(done.status).toBe("failed");
    expect(done.error_message).toBe('The judge model configuration "the judge" was deleted');
    // One case found out; the rest were never started.
    expect(done).toMatchObject({ error_cases: 1, skipped_cases: 4 });
    expect(fake.requests.length).toBe(0);
  });

  it("fails the run when every case errored for the same configuration reason", async () => {
    const { ctx } = await makeWorkspace("editor");
    const persona = { type: "customer", description: "An impatient customer", instructions: "Ask about a refund" };
    const { suite } = await makeSuiteWithCases(ctx, 3, { baseUrl: fake.url, caseData: () => ({ persona, initialMessage: null }) });
    await db.suite.update({ where: { id: suite.id }, data: { llmJudgeModelConfigId: null, simulatorModelConfigId: null } });
    const run = await startRun(ctx, suite.id, { concurrency: 3 }, "api");
    executor(createCaseRunner()).start();
    const done = await untilFinished(ctx, run.id);
    expect(done.status).toBe("failed");
    expect(done.error_message).toMatch(/needs a simulated user/);
    expect(done.error_cases).toBe(3);
  });
});
