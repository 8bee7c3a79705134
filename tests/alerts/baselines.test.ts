import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { selectionKeyOf } from "@/lib/alerts/selection";
import { checkRegression } from "@/lib/runs/alerts";
import { pinBaseline, unpinBaseline } from "@/lib/alerts/service";
import { makeWorkspace, makeSuiteWithCases, runWithOutcomes } from "../helpers/factories";

/** Four cases: "case 0" and "case 1" are tagged smoke. */
async function setup(threshold = 10) {
  const { ctx } = await makeWorkspace("owner");
  const { suite } = await makeSuiteWithCases(ctx, 4, { tags: (i) => (i < 2 ? ["smoke"] : []) });
  await db.suite.update({ where: { id: suite.id }, data: { alertThresholdPercent: threshold } });
  return { ctx, suiteId: suite.id };
}

const alertsOf = (suiteId: string) => db.regressionAlert.findMany({ where: { suiteId }, orderBy: { createdAt: "asc" } });

describe("selection key", () => {
  it("ignores order and duplicates, and tag_match without tags", () => {
    const a = selectionKeyOf({ tags: ["b", "a"], tag_match: "any", difficulty: null, case_ids: null });
    expect(selectionKeyOf({ tags: ["a", "b", "a"], tag_match: "any", difficulty: null, case_ids: null })).toBe(a);
    expect(selectionKeyOf({ tags: ["a", "b"], tag_match: "all", difficulty: null, case_ids: null })).not.toBe(a);
    expect(selectionKeyOf({ tags: [], tag_match: "all" })).toBe(selectionKeyOf({}));
    const ids = ["2b0b2f5e-1111-4c1c-9c1c-000000000001", "2b0b2f5e-1111-4c1c-9c1c-000000000002"];
    expect(selectionKeyOf({ case_ids: ids })).toBe(selectionKeyOf({ case_ids: [...ids].reverse() }));
    expect(selectionKeyOf({ case_ids: ids })).not.toBe(selectionKeyOf({}));
    expect(selectionKeyOf({ difficulty: "hard" })).not.toBe(selectionKeyOf({}));
  });

  it("is stored on every run startRun creates", async () => {
    const { ctx, suiteId } = await setup();
    const all = await runWithOutcomes(ctx, suiteId);
    const smoke = await runWithOutcomes(ctx, suiteId, {}, { tags: ["smoke"] });
    expect(all.selectionKey).toBe(selectionKeyOf({}));
    expect(smoke.selectionKey).toBe(selectionKeyOf({ tags: ["smoke"], tag_match: "any" }));
  });
});

describe("regression baselines", () => {
  it("never compares runs over different selections", async () => {
    const { ctx, suiteId } = await setup();
    const full = await runWithOutcomes(ctx, suiteId); // 100 %
    // The smoke selection fails entirely: no earlier smoke run, so no alert (the full run is not its baseline).
    await runWithOutcomes(ctx, suiteId, { "case 0": "failed", "case 1": "failed" }, { tags: ["smoke"] });
    expect(await alertsOf(suiteId)).toHaveLength(0);
    // The next full run is compared with the full run, not with the smoke run in between.
    const worse = await runWithOutcomes(ctx, suiteId, { "case 3": "failed" }); // 75 %
    const [alert] = await alertsOf(suiteId);
    expect(alert).toMatchObject({ runId: worse.id, previousRunId: full.id, previousRate: 100, passRate: 75, dropPercent: 25 });
    // A second smoke run that fails the same way: compared with the first smoke run (0 → 0), no alert.
    await runWithOutcomes(ctx, suiteId, { "case 0": "failed", "case 1": "failed" }, { tags: ["smoke"] });
    expect(await alertsOf(suiteId)).toHaveLength(1);
  });

  it("lists the flipped cases (passed → failed or error) with ids, names and the case result", async () => {
    const { ctx, suiteId } = await setup();
    await runWithOutcomes(ctx, suiteId, { "case 2": "failed" }); // 75 %
    const bad = await runWithOutcomes(ctx, suiteId, { "case 0": "failed", "case 1": "error", "case 2": "failed" }); // 25 %
    const [alert] = await alertsOf(suiteId);
    expect(alert!.dropPercent).toBe(50);
    const cases = await db.testCase.findMany({ where: { suiteId }, select: { id: true, name: true } });
    const idOf = (name: string) => cases.find((c) => c.name === name)!.id;
    const results = await db.caseResult.findMany({ where: { runId: bad.id }, select: { id: true, name: true } });
    const resultOf = (name: string) => results.find((r) => r.name === name)!.id;
    // case 2 failed in both runs: not a flip. Neither the cases nor the agent changed in between.
    const same = { case_changed: false, cause: "neither" };
    expect(alert!.flippedCases).toEqual([
      { test_case_id: idOf("case 0"), name: "case 0", from: "passed", to: "failed", case_result_id: resultOf("case 0"), ...same },
      { test_case_id: idOf("case 1"), name: "case 1", from: "passed", to: "error", case_result_id: resultOf("case 1"), ...same },
    ]);
    expect(alert!.delta).toEqual({ agent_changed: false, evaluation_changed: false, baseline_run_number: 1 });
  });

  it("uses the pinned baseline over the previous run, and the previous run again once unpinned", async () => {
    const { ctx, suiteId } = await setup(20);
    const best = await runWithOutcomes(ctx, suiteId); // 100 %
    await pinBaseline(ctx, best.id);
    const r2 = await runWithOutcomes(ctx, suiteId, { "case 0": "failed" }); // 75 %: −25 vs pinned → alert
    const r3 = await runWithOutcomes(ctx, suiteId, { "case 0": "failed", "case 1": "failed" }); // 50 %: −25 vs pinned (−25 vs r2 too)
    const r4 = await runWithOutcomes(ctx, suiteId, { "case 0": "failed", "case 1": "failed", "case 2": "failed" }); // 25 %: −75 pinned, −25 prev
    let alerts = await alertsOf(suiteId);
    expect(alerts.map((a) => [a.runId, a.previousRunId, a.dropPercent])).toEqual([
      [r2.id, best.id, 25],
      [r3.id, best.id, 50],
      [r4.id, best.id, 75],
    ]);
    // Unpinned: the previous run with the same selection is the baseline again (25 % → 0 %: −25).
    await unpinBaseline(ctx, best.id);
    const r5 = await runWithOutcomes(ctx, suiteId, { "case 0": "failed", "case 1": "failed", "case 2": "failed", "case 3": "failed" });
    alerts = await alertsOf(suiteId);
    expect(alerts.at(-1)).toMatchObject({ runId: r5.id, previousRunId: r4.id, dropPercent: 25 });
  });

  it("ignores a pinned baseline over another selection", async () => {
    const { ctx, suiteId } = await setup();
    const smoke = await runWithOutcomes(ctx, suiteId, {}, { tags: ["smoke"] });
    await pinBaseline(ctx, smoke.id);
    const full = await runWithOutcomes(ctx, suiteId); // first full run: no baseline at all
    await runWithOutcomes(ctx, suiteId, { "case 3": "failed" });
    const alerts = await alertsOf(suiteId);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.previousRunId).toBe(full.id);
  });

  it("raises nothing below the threshold, when alerts are off, or for a run without a selection key", async () => {
    const { ctx, suiteId } = await setup(30);
    await runWithOutcomes(ctx, suiteId);
    await runWithOutcomes(ctx, suiteId, { "case 0": "failed" }); // −25 < 30
    expect(await alertsOf(suiteId)).toHaveLength(0);
    await db.suite.update({ where: { id: suiteId }, data: { alertOnRegression: false } });
    await runWithOutcomes(ctx, suiteId, { "case 0": "failed", "case 1": "failed", "case 2": "failed" });
    expect(await alertsOf(suiteId)).toHaveLength(0);
    await db.suite.update({ where: { id: suiteId }, data: { alertOnRegression: true } });
    // A run from before selection keys (null): never compared.
    const old = await runWithOutcomes(ctx, suiteId, { "case 0": "failed", "case 1": "failed", "case 2": "failed", "case 3": "failed" });
    await db.regressionAlert.deleteMany({ where: { runId: old.id } });
    await db.run.update({ where: { id: old.id }, data: { selectionKey: null } });
    expect(await checkRegression(old.id, suiteId, ctx.workspaceId)).toBeNull();
  });

  it("refuses to pin a run that did not complete or belongs to a comparison", async () => {
    const { ctx, suiteId } = await setup();
    const run = await runWithOutcomes(ctx, suiteId);
    await db.run.update({ where: { id: run.id }, data: { status: "failed" } });
    await expect(pinBaseline(ctx, run.id)).rejects.toThrow(/completed/);
    const { ctx: other } = await makeWorkspace("owner");
    await expect(pinBaseline(other, run.id)).rejects.toThrow(/not found/i);
  });
});
