/**
 * Judge calibration end to end. A generated suite runs for real (the Executor, the fake
 * OpenAI-compatible server as agent and judge); the fake judge is right about each case with
 * probability q (seeded), the suite's review rules queue every result, and a scripted reviewer
 * labels each item with the truth through the API. The calibration the API reports must equal
 * what this test computes from the stored labels and verdicts, and kappa must rise with q.
 * Then: a second judge (another model) starts a new fingerprint while the first keeps its
 * figures, thresholds decide the status, and two reviewers per item give inter-reviewer figures.
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { mulberry32 } from "@/lib/comparisons/statistics";
import { suiteJudgeStatus } from "@/lib/review/calibration";
import { call } from "../helpers/api";
import { makeApiKey, makeKeyedSuite, runToEnd, waitFor } from "../helpers/factories";
import { withRunStack } from "../helpers/run-stack";

const { fake } = withRunStack();

const { POST: labelRoute } = await import("@/app/api/v1/review-items/[id]/labels/route");
const { GET: calibrationRoute } = await import("@/app/api/v1/suites/[id]/judge-calibration/route");
const { GET: listRoute } = await import("@/app/api/v1/review-items/route");
const { PATCH: suiteRoute } = await import("@/app/api/v1/suites/[id]/route");

const CASES = 60;

type Made = Awaited<ReturnType<typeof makeKeyedSuite>>;

/**
 * A suite of CASES single-turn cases, each judged by one llm_judge check; the truth of case i
 * (pass or fail) and whether the judge gets it right (probability q) are drawn from the seed.
 */
async function judgedSuite(q: number, seed: number) {
  const random = mulberry32(seed);
  const truth = Array.from({ length: CASES }, () => random() < 0.5);
  const judgeSays = truth.map((t) => (random() < q ? t : !t));
  const made = await makeKeyedSuite(CASES, fake.url, (i) => ({
    initialMessage: `question ${i} marker-${seed}-${i}.`,
    checks: [{ type: "llm_judge", expected_answer: "the right answer", criteria: null }],
  }));
  for (let i = 0; i < CASES; i++) {
    fake.addRule({
      match: { schemaName: "check_verdict", anyContains: `marker-${seed}-${i}.` },
      reply: { json: { reasoning: `scripted for case ${i}`, verdict: judgeSays[i] ? "pass" : "fail" } },
    });
  }
  const rules = await call(suiteRoute, {
    method: "PATCH",
    token: made.editor,
    body: { review_rules: { failed: true, passed_sample_percent: 100, flaky: false } },
    params: { id: made.suite.id },
  });
  expect(rules.status).toBe(200);
  return { made, truth, judgeSays };
}

/** Labels every open item of the run with the truth (the overall verdict and the check element). */
async function labelWithTruth(made: Made, runId: string, truth: boolean[], token = made.editor) {
  // The review rules run after the run's status is stored ("run finished"): wait for their items.
  await waitFor(
    () => db.reviewItem.count({ where: { runId } }),
    (n) => n === CASES,
  );
  const items = await db.reviewItem.findMany({
    where: { runId, status: "open" },
    select: { id: true, caseResult: { select: { name: true } } },
  });
  expect(items).toHaveLength(CASES);
  for (const item of items) {
    const i = Number(item.caseResult.name.replace("case ", ""));
    const res = await call(labelRoute, {
      method: "POST",
      token,
      body: { verdict: truth[i] ? "pass" : "fail", checks: { "0": truth[i] } },
      params: { id: item.id },
    });
    expect(res.status).toBe(200);
  }
}

/** Kappa and the confusion matrix computed here from the stored labels and verdicts, independently of the app. */
async function storedFigures(suiteId: string) {
  const items = await db.reviewItem.findMany({
    where: { suiteId, status: { in: ["agreed", "resolved"] } },
    select: { caseResult: { select: { status: true, humanVerdict: true } } },
  });
  const cells = { pp: 0, pf: 0, fp: 0, ff: 0 };
  for (const { caseResult: r } of items) {
    if (r.status !== "passed" && r.status !== "failed") continue;
    const key = `${r.status === "passed" ? "p" : "f"}${r.humanVerdict === "pass" ? "p" : "f"}` as keyof typeof cells;
    cells[key]++;
  }
  const n = cells.pp + cells.pf + cells.fp + cells.ff;
  const po = (cells.pp + cells.ff) / n;
  const judgePass = (cells.pp + cells.pf) / n;
  const humanPass = (cells.pp + cells.fp) / n;
  const pe = judgePass * humanPass + (1 - judgePass) * (1 - humanPass);
  return { cells, n, po, kappa: (po - pe) / (1 - pe) };
}

async function calibration(made: Made) {
  const res = await call(calibrationRoute, { token: made.viewer, params: { id: made.suite.id } });
  expect(res.status).toBe(200);
  return res.json;
}

describe("judge calibration against a scripted reviewer", () => {
  it("reports the kappa and confusion matrix of the stored labels, and kappa rises with the judge's accuracy", async () => {
    const kappas: number[] = [];
    const judgeStatuses: string[] = [];
    for (const [q, seed] of [
      [0.6, 11],
      [0.8, 12],
      [0.97, 13],
    ] as const) {
      const { made, truth, judgeSays } = await judgedSuite(q, seed);
      const run = await runToEnd(made.ctx, made.suite.id);
      expect(run.status).toBe("completed");
      // The judge decided every case as scripted: the run's verdicts are the scripted ones.
      const statuses = await db.caseResult.findMany({ where: { runId: run.id }, select: { name: true, status: true } });
      for (const s of statuses) expect(s.status).toBe(judgeSays[Number(s.name.replace("case ", ""))] ? "passed" : "failed");
      // The rules queue every result (failed ones, and 100 % of the passed ones): labelWithTruth waits for all CASES.
      await labelWithTruth(made, run.id, truth);

      const c = await calibration(made);
      const stored = await storedFigures(made.suite.id);
      const overall = c.fingerprints[0].levels.overall;
      expect(c.fingerprints).toHaveLength(1);
      expect(overall.n).toBe(CASES);
      expect(overall.confusion).toEqual({
        judge_pass_human_pass: stored.cells.pp,
        judge_pass_human_fail: stored.cells.pf,
        judge_fail_human_pass: stored.cells.fp,
        judge_fail_human_fail: stored.cells.ff,
      });
      // And the matrix is the scripted one: judge right where it was drawn to be.
      const right = judgeSays.filter((j, i) => j === truth[i]).length;
      expect(stored.cells.pp + stored.cells.ff).toBe(right);
      expect(overall.agreement).toBeCloseTo(stored.po, 12);
      expect(overall.kappa).toBeCloseTo(stored.kappa, 12);
      // Even a judge right on all 60 keeps some doubt: the interval never collapses to a point.
      expect(overall.kappa_ci95[0]).toBeLessThan(overall.kappa);
      expect(overall.failure_recall).toBeCloseTo(stored.cells.ff / (stored.cells.ff + stored.cells.pf), 12);
      expect(overall.failure_precision).toBeCloseTo(stored.cells.ff / (stored.cells.ff + stored.cells.fp), 12);
      // The check level has the same pairs: one llm_judge check per case, labelled with the truth.
      expect(c.fingerprints[0].levels.checks).toEqual(overall);
      expect(c.fingerprints[0].levels.outcomes.n).toBe(0);
      expect(c.fingerprints[0].disagreements).toBe(CASES - right);
      const disagreements = await call(listRoute, {
        url: `/api/v1/review-items?suite_id=${made.suite.id}&overturned=true&limit=200`,
        token: made.viewer,
      });
      expect(disagreements.json.data).toHaveLength(CASES - right);
      kappas.push(overall.kappa);
      // 60 labels ≥ the default 30: trusted or doubtful by the interval's lower bound and 0.6.
      expect(c.status).toBe(overall.kappa_ci95[0] >= 0.6 ? "trusted" : "doubtful");
      // The run page's badge counts the same matrix in SQL.
      expect(await suiteJudgeStatus(made.ctx, made.suite.id)).toBe(c.status);
      judgeStatuses.push(c.status);
    }
    expect(kappas[0]).toBeLessThan(kappas[1]!);
    expect(kappas[1]).toBeLessThan(kappas[2]!);
    expect(kappas[2]).toBeGreaterThan(0.8);
    // A judge right about 60 % of the time is doubtful; one right on all 60 is trusted.
    expect(judgeStatuses[0]).toBe("doubtful");
    expect(judgeStatuses[2]).toBe("trusted");
  }, 120_000);

  it("starts a new fingerprint when the judge changes, keeps the old one's figures, and takes its thresholds from the suite", async () => {
    const { made, truth } = await judgedSuite(0.9, 21);
    const run = await runToEnd(made.ctx, made.suite.id);
    await labelWithTruth(made, run.id, truth);
    const before = await calibration(made);
    const first = before.fingerprints[0];
    expect(first.judge).toMatchObject({ model: "fake-model", base_url: fake.url });

    // Another judge model: the current fingerprint is new and uncalibrated; the old one keeps its figures.
    const other = await db.modelConfig.create({
      data: { workspaceId: made.workspace.id, name: "judge-b", baseUrl: fake.url, model: "judge-b" },
    });
    await db.suite.update({ where: { id: made.suite.id }, data: { llmJudgeModelConfigId: other.id } });
    const after = await calibration(made);
    expect(after.current_fingerprint).not.toBe(first.fingerprint);
    expect(after.status).toBe("uncalibrated");
    expect(after.fingerprints.map((f: { fingerprint: string }) => f.fingerprint)).toEqual([after.current_fingerprint, first.fingerprint]);
    expect(after.fingerprints[0].levels.overall.n).toBe(0);
    expect(after.fingerprints[1]).toEqual(first);

    // Back to the first judge, with a stricter bar: more labels than there are → uncalibrated; then a kappa bar of -1 → trusted.
    await db.suite.update({ where: { id: made.suite.id }, data: { llmJudgeModelConfigId: made.modelConfig.id } });
    const patch = (body: unknown) => call(suiteRoute, { method: "PATCH", token: made.editor, body, params: { id: made.suite.id } });
    expect((await patch({ calibration_min_labels: CASES + 1 })).status).toBe(200);
    expect((await calibration(made)).status).toBe("uncalibrated");
    expect(await suiteJudgeStatus(made.ctx, made.suite.id)).toBe("uncalibrated");
    expect((await patch({ calibration_min_labels: CASES, calibration_trusted_kappa: -1 })).status).toBe(200);
    expect((await calibration(made)).status).toBe("trusted");
    expect(await suiteJudgeStatus(made.ctx, made.suite.id)).toBe("trusted");
    const refused = await patch({ calibration_trusted_kappa: 2, required_reviews: 6 });
    expect(refused.status).toBe(400);
    expect(refused.json.error.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      "calibration_trusted_kappa",
      "required_reviews",
    ]);
  }, 60_000);

  it("reports agreement between reviewers when items have two labels", async () => {
    const { made, truth } = await judgedSuite(0.9, 31);
    await call(suiteRoute, { method: "PATCH", token: made.editor, body: { required_reviews: 2 }, params: { id: made.suite.id } });
    const run = await runToEnd(made.ctx, made.suite.id);
    await labelWithTruth(made, run.id, truth);
    // The second reviewer disagrees with the truth on the first 6 cases only.
    const second = await makeApiKey(made.workspace.id, "editor");
    const flipped = truth.map((t, i) => (i < 6 ? !t : t));
    await labelWithTruth(made, run.id, flipped, second);
    const c = await calibration(made);
    const inter = c.fingerprints[0].inter_reviewer;
    expect(inter).toMatchObject({ items: CASES, method: "cohen" });
    expect(inter.agreement).toBeCloseTo((CASES - 6) / CASES, 12);
    // Six conflicts have no human verdict yet: only the agreed items count against the judge.
    expect(c.fingerprints[0].levels.overall.n).toBe(CASES - 6);
    expect(await db.reviewItem.count({ where: { runId: run.id, status: "conflict" } })).toBe(6);
  }, 60_000);
});
