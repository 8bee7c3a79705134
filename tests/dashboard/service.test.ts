import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getDashboard } from "@/lib/dashboard/service";
import { makeWorkspace, makeSuiteWithCases, runRowData, runWithOutcomes } from "../helpers/factories";

describe("getDashboard", () => {
  it("shows a new workspace as empty", async () => {
    const { ctx } = await makeWorkspace("viewer");
    expect(await getDashboard(ctx)).toEqual({
      suites: [],
      suite_count: 0,
      active_runs: [],
      open_alerts: [],
      open_alert_count: 0,
      failures: [],
      review_waiting: 0,
    });
  });

  it("gives each suite its trend over ordinary completed runs, the runs in progress, open alerts and recent failures — of its own workspace only", async () => {
    const { ctx } = await makeWorkspace("owner");
    const { suite } = await makeSuiteWithCases(ctx, 4);
    await db.suite.update({ where: { id: suite.id }, data: { alertThresholdPercent: 1 } });
    await runWithOutcomes(ctx, suite.id);
    const red = await runWithOutcomes(ctx, suite.id, { "case 1": "failed", "case 2": "error" });
    const running = await db.run.create({ data: { ...runRowData(ctx, suite.id, "running", { total: 4, passed: 1 }) } });

    // Another workspace's suite, run and failure stay out.
    const other = await makeWorkspace("owner");
    const { suite: foreign } = await makeSuiteWithCases(other.ctx, 1);
    await runWithOutcomes(other.ctx, foreign.id, { "case 0": "failed" });

    const d = await getDashboard(ctx);
    expect(d.suite_count).toBe(1);
    expect(d.suites).toEqual([
      expect.objectContaining({ id: suite.id, rates: [100, 50], last_run: expect.objectContaining({ id: red.id, pass_rate: 50 }) }),
    ]);
    expect(d.active_runs.map((r) => r.id)).toEqual([running.id]);
    expect(d.active_runs[0]).toMatchObject({ done: 1, total: 4, suite_name: suite.name });
    expect(d.open_alerts).toEqual([expect.objectContaining({ run_id: red.id, pass_rate: 50, previous_rate: 100 })]);
    expect(d.open_alert_count).toBe(1);
    expect(d.failures.map((f) => [f.name, f.status, f.run_id])).toEqual(
      expect.arrayContaining([
        ["case 1", "failed", red.id],
        ["case 2", "error", red.id],
      ]),
    );
    expect(d.failures).toHaveLength(2);
    expect(d.failures.find((f) => f.status === "error")?.reason).toBe("boom");
  });

  it("leaves experiment runs out of the trend", async () => {
    const { ctx } = await makeWorkspace("owner");
    const { suite } = await makeSuiteWithCases(ctx, 2);
    await runWithOutcomes(ctx, suite.id);
    const matrixRun = await runWithOutcomes(ctx, suite.id, { "case 0": "failed" });
    const matrix = await db.matrix.create({ data: { workspaceId: ctx.workspaceId, suiteId: suite.id, name: "m", axes: {} } });
    await db.run.update({ where: { id: matrixRun.id }, data: { matrixId: matrix.id, combinationIndex: 0 } });
    const d = await getDashboard(ctx);
    expect(d.suites[0]!.rates).toEqual([100]);
    expect(d.failures).toEqual([]);
  });
});
