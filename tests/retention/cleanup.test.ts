import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { RUN_BATCH, runCleanup, runNightlyCleanupIfDue } from "@/lib/retention/cleanup";
import { makeWorkspace } from "../helpers/factories";
import { makeSuiteWithCases } from "../runs/helpers";
import { makeComparison, makeRun } from "./helpers";

const DAY = 24 * 3_600_000;

async function dbNow(): Promise<Date> {
  const [row] = await db.$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
  return row!.now;
}

const exists = async (ids: string[]) =>
  (await db.run.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((r) => r.id).sort();
/** A suite in a new workspace with `count` completed scheduled runs, 100 days old and older. */
async function suiteWithOldRuns(now: Date, count: number) {
  const { ctx } = await makeWorkspace("owner");
  const { suite } = await makeSuiteWithCases(ctx, 1);
  await db.run.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      workspaceId: ctx.workspaceId,
      suiteId: suite.id,
      triggeredBy: "schedule" as const,
      status: "completed" as const,
      agentSnapshot: {},
      createdAt: new Date(now.getTime() - (100 + i) * DAY),
    })),
  });
  return suite;
}
const totals = async () => ({ runs: await db.run.count(), results: await db.caseResult.count(), calls: await db.llmCall.count() });

// Tests in this file share one database and run in order: the keep-rules test comes first and
// counts exactly; later ones only add their own data.
describe("retention cleanup keep-rules", () => {
  it("deletes old runs with their results and LLM calls, keeping the newest N, pinned, active, alert-referenced and starred-arm runs; the dry run reports the same counts and deletes nothing", async () => {
    const now = await dbNow();
    const { ctx } = await makeWorkspace("owner");
    const a = (await makeSuiteWithCases(ctx, 1)).suite;
    const b = (await makeSuiteWithCases(ctx, 1)).suite;
    const run = (suiteId: string, daysAgo: number, status?: "pending" | "running" | "completed" | "failed" | "cancelled") =>
      makeRun(ctx, suiteId, now, daysAgo, { status });

    // Suite A, instance settings (30 days, newest 3 finished runs, whatever they ended as: the
    // young failed run below is the newest of them, so 40 and 41 days old complete the three).
    const newest = [await run(a.id, 40), await run(a.id, 41)];
    const olderCompleted = [await run(a.id, 42), await run(a.id, 43), await run(a.id, 44), await run(a.id, 45)];
    const pinned = await run(a.id, 50);
    await db.suite.update({ where: { id: a.id }, data: { baselineRunId: pinned.id } });
    const openAlertRun = await run(a.id, 55);
    const openAlertPrevious = await run(a.id, 56);
    const ackAlertRun = await run(a.id, 57);
    await db.regressionAlert.create({
      data: {
        workspaceId: ctx.workspaceId,
        suiteId: a.id,
        runId: openAlertRun.id,
        previousRunId: openAlertPrevious.id,
        passRate: 0.5,
        previousRate: 0.9,
        dropPercent: 40,
      },
    });
    await db.regressionAlert.create({
      data: {
        workspaceId: ctx.workspaceId,
        suiteId: a.id,
        runId: ackAlertRun.id,
        passRate: 0.5,
        previousRate: 0.9,
        dropPercent: 40,
        acknowledgedAt: now,
      },
    });
    const active = [await run(a.id, 60, "running"), await run(a.id, 60, "pending")];
    const oldFailed = [await run(a.id, 50, "failed"), await run(a.id, 70, "cancelled")];
    const young = await run(a.id, 5, "failed");
    const starred = await makeComparison(ctx, a.id, now, 60, true);
    const plain = await makeComparison(ctx, a.id, now, 60, false);
    const youngComparison = await makeComparison(ctx, a.id, now, 10, false);

    // Suite B overrides: age keeps nothing, newest 1 completed run kept.
    await db.suite.update({ where: { id: b.id }, data: { retentionDays: 0, retentionRuns: 1 } });
    const bNewest = await run(b.id, 1);
    const bOld = [await run(b.id, 2), await run(b.id, 3)];
    // An old plain run that a starred comparison of two finished runs points at.
    const bStarredArm = await run(b.id, 80);
    const finished = await db.comparison.create({
      data: {
        workspaceId: ctx.workspaceId,
        suiteId: b.id,
        name: "two finished runs",
        status: "completed",
        starred: true,
        source: "imported",
      },
    });
    await db.comparisonArm.create({
      data: { workspaceId: ctx.workspaceId, comparisonId: finished.id, index: 0, role: "baseline", label: "b", runId: bStarredArm.id },
    });

    const settings = { days: 30, runs: 3 };
    const before = await totals();
    const preview = await runCleanup({ dryRun: true, now, settings });
    expect(preview).toMatchObject({ dry_run: true, runs_deleted: 11, results_deleted: 22, llm_calls_deleted: 33 });
    expect(preview.bytes_freed_estimate).toBeGreaterThan(0);
    expect(await totals()).toEqual(before);

    const done = await runCleanup({ now, settings });
    expect({ ...done, dry_run: true }).toEqual(preview);
    expect(await totals()).toEqual({ runs: before.runs - 11, results: before.results - 22, calls: before.calls - 33 });

    const kept = [
      ...newest,
      pinned,
      openAlertRun,
      openAlertPrevious,
      ...active,
      young,
      ...starred.runs,
      ...youngComparison.runs,
      bNewest,
      bStarredArm,
    ].map((r) => r.id);
    expect(await exists(kept)).toEqual([...kept].sort());
    const deleted = [...olderCompleted, ackAlertRun, ...oldFailed, ...plain.runs, ...bOld].map((r) => r.id);
    expect(deleted).toHaveLength(11);
    expect(await exists(deleted)).toEqual([]);
    // The unstarred old comparison went as a whole; the starred ones stay.
    expect(await db.comparison.findUnique({ where: { id: plain.comparison.id } })).toBeNull();
    expect(await db.comparisonPair.count({ where: { comparisonId: plain.comparison.id } })).toBe(0);
    expect(await db.comparison.count({ where: { id: { in: [starred.comparison.id, finished.id, youngComparison.comparison.id] } } })).toBe(
      3,
    );

    const records = await db.cleanupRecord.findMany({ orderBy: { startedAt: "asc" } });
    expect(records.map((r) => [r.trigger, r.dryRun, r.runsDeleted, r.resultsDeleted, r.llmCallsDeleted])).toEqual([
      ["manual", true, 11, 22, 33],
      ["manual", false, 11, 22, 33],
    ]);
    expect(records.every((r) => r.completedAt && r.error === null)).toBe(true);

    // Nothing left to delete: a second cleanup deletes nothing.
    expect(await runCleanup({ now, settings })).toMatchObject({ runs_deleted: 0, results_deleted: 0, bytes_freed_estimate: 0 });
  });

  it("keeps the newest N runs of every finished status, not only completed ones (the reference schema)", async () => {
    const now = await dbNow();
    const { ctx } = await makeWorkspace("owner");
    const { suite } = await makeSuiteWithCases(ctx, 1);
    // Age keeps nothing here; only the newest two finished runs stay.
    await db.suite.update({ where: { id: suite.id }, data: { retentionDays: 0, retentionRuns: 2 } });
    const failed = await makeRun(ctx, suite.id, now, 1, { status: "failed" });
    const cancelled = await makeRun(ctx, suite.id, now, 2, { status: "cancelled" });
    const olderCompleted = [await makeRun(ctx, suite.id, now, 3), await makeRun(ctx, suite.id, now, 4)];
    const settings = { days: 30, runs: 30 };
    await runCleanup({ now, settings });
    expect(await exists([failed.id, cancelled.id])).toEqual([failed.id, cancelled.id].sort());
    expect(await exists(olderCompleted.map((r) => r.id))).toEqual([]);
  });

  it("deletes in batches until nothing old is left", async () => {
    const now = await dbNow();
    const count = RUN_BATCH * 2 + 17;
    const suite = await suiteWithOldRuns(now, count);
    await db.suite.update({ where: { id: suite.id }, data: { retentionRuns: 5 } });
    // Most of the instance's finished runs: without confirmation nothing would go.
    await expect(runCleanup({ now, settings: { days: 30, runs: 30 } })).rejects.toMatchObject({ code: "confirmation_required" });
    const result = await runCleanup({ now, settings: { days: 30, runs: 30 }, confirm: true });
    expect(result.runs_deleted).toBe(count - 5);
    expect(await db.run.count({ where: { suiteId: suite.id } })).toBe(5);
  });
});

describe("the nightly cleanup", () => {
  it("runs once per slot (cleanup_time in UTC) across concurrent callers, and again the next night", async () => {
    await db.instanceSetting.upsert({
      where: { key: "test_suites.retention_cleanup_time" },
      create: { key: "test_suites.retention_cleanup_time", value: "03:00" },
      update: { value: "03:00" },
    });
    const night = new Date("2026-06-10T05:00:00Z");
    const results = await Promise.all([runNightlyCleanupIfDue(night), runNightlyCleanupIfDue(night), runNightlyCleanupIfDue(night)]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    const records = await db.cleanupRecord.findMany({ where: { trigger: "schedule" } });
    expect(records).toHaveLength(1);
    expect(records[0]!.slot?.toISOString()).toBe("2026-06-10T03:00:00.000Z");
    expect(records[0]!.completedAt).not.toBeNull();

    expect(await runNightlyCleanupIfDue(new Date("2026-06-10T23:00:00Z"))).toBeNull();
    expect(await runNightlyCleanupIfDue(new Date("2026-06-11T02:59:00Z"))).toBeNull();
    expect(await runNightlyCleanupIfDue(new Date("2026-06-11T03:00:00Z"))).not.toBeNull();
    expect(await db.cleanupRecord.count({ where: { trigger: "schedule" } })).toBe(2);
  });

  it("holds off a cleanup that would delete more than half of all finished runs, and its record says so", async () => {
    const now = await dbNow();
    const suite = await suiteWithOldRuns(now, 40);
    await db.suite.update({ where: { id: suite.id }, data: { retentionRuns: 1 } });
    const finished = await db.run.count({ where: { status: { in: ["completed", "failed", "cancelled"] } } });

    expect(await runNightlyCleanupIfDue(now)).toBeNull();
    expect(await db.run.count({ where: { suiteId: suite.id } })).toBe(40);
    const held = await db.cleanupRecord.findFirstOrThrow({ where: { trigger: "schedule" }, orderBy: { startedAt: "desc" } });
    expect(held).toMatchObject({
      runsDeleted: 0,
      completedAt: expect.any(Date),
      error: `Held: would delete 39 of ${finished} finished runs (more than half); run it from Settings → Retention to confirm`,
    });
    // The slot is used: the next tick does not try again; a confirmed cleanup goes ahead.
    expect(await runNightlyCleanupIfDue(now)).toBeNull();
    expect((await runCleanup({ now, confirm: true })).runs_deleted).toBe(39);
  });
});
