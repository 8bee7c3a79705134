// A large run starts with its first batch of case results and writes the rest in batches, all
// read from the snapshot taken at its start (lib/runs/batched-start.ts): the run holds exactly
// what one statement would have written, is not finalized before the last batch, stops on a
// cancel, and fails (instead of hanging) when its writer dies.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { cancelRun, getRun, startRun } from "@/lib/runs/service";
import { ABANDONED_START, configureBatchedStart } from "@/lib/runs/batched-start";
import { finalizeRunIfDone } from "@/lib/runs/finalize";
import { recoverExpiredCases } from "@/lib/runs/recovery";
import { withRunStack } from "../helpers/run-stack";
import { makeSuiteWithCases, makeWorkspace, setAgentVariables, variable, waitFor, waitUntilFinished } from "../helpers/factories";

const { fake } = withRunStack();

afterEach(() => configureBatchedStart(null));

/** A gate the writer waits at before the batch starting at `at`; `passed` resolves when it got there. */
function gateAt(at: number) {
  let open!: () => void;
  let reached!: () => void;
  const passed = new Promise<void>((r) => (reached = r));
  const opened = new Promise<void>((r) => (open = r));
  configureBatchedStart({
    firstRows: 100,
    batchRows: 150,
    beforeBatch: async (position) => {
      if (position !== at) return;
      reached();
      await opened;
    },
  });
  return { open, passed };
}

/** The suite's case ids in the order a run takes them: by sort order, ties by id. */
async function caseIdsInRunOrder(suiteId: string) {
  const cases = await db.testCase.findMany({ where: { suiteId }, orderBy: [{ sortOrder: "asc" }, { id: "asc" }], select: { id: true } });
  return cases.map((c) => c.id);
}

/** Starts a run and waits for it, checking that it starts with, and completes, `total` case results. */
async function completedRun(ctx: WorkspaceContext, suiteId: string, body: { trials: number; concurrency: number }, total: number) {
  const started = await startRun(ctx, suiteId, body, "api");
  expect(started.total_cases).toBe(total);
  const run = await waitUntilFinished(() => getRun(ctx, started.id), 60_000);
  expect(run).toMatchObject({ status: "completed", total_cases: total });
  return run;
}

async function resultsOf(runId: string) {
  return db.caseResult.findMany({
    where: { runId },
    select: { position: true, repetition: true, testCaseId: true, status: true, caseSnapshot: true, resolvedVariables: true },
    orderBy: { position: "asc" },
  });
}

describe("a run larger than its first batch", () => {
  it("starts with the first batch and writes the rest in order: every case × trial once, at trial-major positions", async () => {
    configureBatchedStart({ firstRows: 100, batchRows: 150 });
    const { ctx } = await makeWorkspace("editor");
    // Four cases share each sort order: the batches continue after (sortOrder, id), ties included.
    const { suite } = await makeSuiteWithCases(ctx, 260, { baseUrl: fake.url, caseData: (i) => ({ sortOrder: Math.floor(i / 4) }) });
    const caseIds = await caseIdsInRunOrder(suite.id);

    const run = await completedRun(ctx, suite.id, { trials: 2, concurrency: 20 }, 520);
    expect(run.summary).toMatchObject({ total_tests: 520, passed: 520 });
    const results = await resultsOf(run.id);
    expect(results.map((r) => r.position)).toEqual(Array.from({ length: 520 }, (_, i) => i));
    // position = trial × cases + case index
    expect(results.map((r) => [r.testCaseId, r.repetition])).toEqual(
      Array.from({ length: 520 }, (_, i) => [caseIds[i % 260], Math.floor(i / 260)]),
    );
    // Each question asked once per trial.
    const asked = new Map<string, number>();
    for (const r of fake.requests.filter((q) => q.endpoint === "chat")) {
      const text = String(r.body.messages.at(-1).content);
      asked.set(text, (asked.get(text) ?? 0) + 1);
    }
    expect(asked.size).toBe(260);
    expect([...asked.values()].every((n) => n === 2)).toBe(true);
  });

  it("with fewer cases than the first batch takes, the first batch is the whole first trial and the others follow", async () => {
    // The first batch is read while the snapshot's cases are counted: it asks for 100 and finds 60.
    configureBatchedStart({ firstRows: 100, batchRows: 25 });
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 60, { baseUrl: fake.url });
    const caseIds = await caseIdsInRunOrder(suite.id);

    const run = await completedRun(ctx, suite.id, { trials: 3, concurrency: 10 }, 180);
    const results = await resultsOf(run.id);
    expect(results.map((r) => [r.position, r.testCaseId, r.repetition])).toEqual(
      Array.from({ length: 180 }, (_, i) => [i, caseIds[i % 60], Math.floor(i / 60)]),
    );
  });

  it("sizes its first batch by the run's concurrency (two waves, at least 50 rows), and doubles each batch after it", async () => {
    for (const [concurrency, expected] of [
      // 50 rows at least; then 100, 200, and the last 50.
      [10, [50, 150, 350]],
      // Two waves of 60; then 240, and the last 40.
      [60, [120, 360]],
    ] as const) {
      // The defaults (no firstRows or batchRows); each run in a workspace of its own, whose rows
      // are counted when each later batch starts (the hook runs before startRun returns the id).
      const { ctx } = await makeWorkspace("editor");
      const { suite } = await makeSuiteWithCases(ctx, 400, { baseUrl: fake.url });
      const starts: { position: number; rows: number }[] = [];
      configureBatchedStart({
        beforeBatch: async (position) => {
          starts.push({ position, rows: await db.caseResult.count({ where: { workspaceId: ctx.workspaceId } }) });
        },
      });
      const started = await startRun(ctx, suite.id, { concurrency }, "api");
      const done = await waitUntilFinished(() => getRun(ctx, started.id), 60_000);
      expect(done).toMatchObject({ status: "completed", total_cases: 400 });
      expect(starts.map((s) => s.position)).toEqual(expected);
      // Each batch is committed before the next one starts: the first batch alone, then the rows so far.
      expect(starts.map((s) => s.rows)).toEqual(expected);
    }
  });

  it("writes every batch from the run's start: an edit, a new case or a deletion meanwhile is not seen", async () => {
    const gate = gateAt(250);
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 300, { baseUrl: fake.url });
    const cases = await db.testCase.findMany({ where: { suiteId: suite.id }, orderBy: { sortOrder: "asc" }, select: { id: true } });

    const started = await startRun(ctx, suite.id, {}, "api");
    await gate.passed;
    await db.testCase.update({ where: { id: cases[280]!.id }, data: { initialMessage: "edited after the start" } });
    await db.testCase.update({ where: { id: cases[290]!.id }, data: { deletedAt: new Date() } });
    await db.testCase.create({
      data: { workspaceId: ctx.workspaceId, suiteId: suite.id, name: "added after the start", initialMessage: "new", sortOrder: -1 },
    });
    gate.open();
    const run = await waitUntilFinished(() => getRun(ctx, started.id), 60_000);

    expect(run).toMatchObject({ status: "completed", total_cases: 300 });
    const results = await resultsOf(started.id);
    expect(results.map((r) => r.testCaseId)).toEqual(cases.map((c) => c.id));
    expect(results[280]!.caseSnapshot).toMatchObject({ initial_message: "question 280" });
    expect(results[290]!.caseSnapshot).toMatchObject({ initial_message: "question 290" });
  });

  it("is not finalized while batches are still to come, even with every written case done", async () => {
    const gate = gateAt(250);
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 300, { baseUrl: fake.url });

    const started = await startRun(ctx, suite.id, { concurrency: 50 }, "api");
    await gate.passed;
    // The first batches (250 cases) run to the end while the last one waits.
    await waitFor(
      () => db.caseResult.count({ where: { runId: started.id, status: "passed" } }),
      (n) => n === 250,
      30_000,
    );
    expect(await finalizeRunIfDone(started.id)).toBe(false);
    expect(await getRun(ctx, started.id)).toMatchObject({ status: "running", total_cases: 300 });

    gate.open();
    const run = await waitUntilFinished(() => getRun(ctx, started.id), 60_000);
    expect(run).toMatchObject({ status: "completed", total_cases: 300 });
    expect(run.summary).toMatchObject({ passed: 300 });
  });

  it("stops writing on a cancel: the run ends cancelled with the cases written, none pending", async () => {
    const gate = gateAt(100);
    fake.setLatency(300);
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 400, { baseUrl: fake.url });

    const started = await startRun(ctx, suite.id, { concurrency: 10 }, "api");
    await gate.passed;
    const cancelled = await cancelRun(ctx, started.id);
    // Not ended yet: the writer ends it when it sees the cancel.
    expect(["pending", "running"]).toContain(cancelled.status);
    gate.open();
    const run = await waitUntilFinished(() => getRun(ctx, started.id), 30_000);

    expect(run).toMatchObject({ status: "cancelled", total_cases: 100 });
    const results = await resultsOf(started.id);
    expect(results).toHaveLength(100);
    expect(results.filter((r) => r.status === "pending" || r.status === "running")).toHaveLength(0);
    expect(fake.requests.filter((r) => r.endpoint === "chat").length).toBeLessThanOrEqual(10);
  });

  it("fails when its writer stops before the last batch: written cases run or are skipped, nothing hangs", async () => {
    const gate = gateAt(100); // the writer stalls as a dead one would
    fake.setLatency(200);
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 400, { baseUrl: fake.url });

    const started = await startRun(ctx, suite.id, { concurrency: 5 }, "api");
    await db.run.update({ where: { id: started.id }, data: { leaseExpiresAt: new Date(Date.now() - 1000) } });
    await recoverExpiredCases({ workerId: "test-recovery", maxAttempts: 3 });
    const run = await waitUntilFinished(() => getRun(ctx, started.id), 30_000);

    expect(run).toMatchObject({ status: "failed", error_message: ABANDONED_START, total_cases: 100 });
    const results = await resultsOf(started.id);
    expect(results).toHaveLength(100);
    expect(results.filter((r) => r.status === "skipped").length).toBeGreaterThan(0);
    expect(results.filter((r) => r.status === "pending" || r.status === "running")).toHaveLength(0);

    // The writer coming back finds its lease gone and writes nothing more.
    gate.open();
    await new Promise((r) => setTimeout(r, 500));
    expect(await db.caseResult.count({ where: { runId: started.id } })).toBe(100);
    expect(await getRun(ctx, started.id)).toMatchObject({ status: "failed", total_cases: 100 });
  });

  it("stores every case's resolved variables, in later batches too", async () => {
    configureBatchedStart({ firstRows: 50, batchRows: 100 });
    const { ctx } = await makeWorkspace("editor");
    const { suite, agent } = await makeSuiteWithCases(ctx, 260, {
      baseUrl: fake.url,
      caseData: (i) => (i % 2 ? { variables: { Temperature: { exposed: true, default_value: 0.7 } } } : {}),
    });
    await setAgentVariables(agent.id, [variable("Temperature", "number", { default_value: 0.2 })]);

    const started = await startRun(ctx, suite.id, {}, "api");
    await waitUntilFinished(() => getRun(ctx, started.id), 60_000);

    const results = await resultsOf(started.id);
    expect(results).toHaveLength(260);
    const temperatures = results.map((r) => (r.resolvedVariables as { values?: { Temperature?: number } } | null)?.values?.Temperature);
    expect(temperatures).toEqual(Array.from({ length: 260 }, (_, i) => (i % 2 ? 0.7 : 0.2)));
  });
});

describe("locks on the rows a batch's foreign keys point at", () => {
  // A row locked FOR UPDATE and then updated counts as a key update for PostgreSQL: the foreign-key
  // check of a batch reading an older snapshot of it fails to serialize. Runs are locked FOR NO KEY UPDATE.
  it("no code locks a run FOR UPDATE", () => {
    const root = path.resolve(import.meta.dirname, "../../lib");
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts") && !f.startsWith("generated"));
    const offenders = files.filter((f) => /FROM "Run"(\s+\w+)?\s+WHERE[^`;()]*?FOR UPDATE/.test(readFileSync(path.join(root, f), "utf8")));
    expect(files.length).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });
});
