/**
 * Trials through the API: runs take `trials` (or the preset's, or the suite's default), every
 * trial is a case result with `trial`, per-case figures and stability, the run summary's pass@1
 * with its interval, pass@k and pass^k, re-runs of what matters, a case's history with its flip
 * rate, and regression alerts that list flaky cases apart. Verdicts are written directly (no
 * model is called): what is checked is what the API computes from stored verdicts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startRun } from "@/lib/runs/service";
import { finalizeRunIfDone } from "@/lib/runs/finalize";
import { caseTrialStats, runTrialStats } from "@/lib/runs/trials";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { call } from "../helpers/api";
import { makeKeyedSuite, runWithTrialOutcomes, waitFor } from "../helpers/factories";

const { POST: startRoute } = await import("@/app/api/v1/suites/[id]/runs/route");
const { GET: runRoute } = await import("@/app/api/v1/runs/[id]/route");
const { GET: resultsRoute } = await import("@/app/api/v1/runs/[id]/results/route");
const { GET: casesRoute } = await import("@/app/api/v1/runs/[id]/cases/route");
const { POST: rerunRoute } = await import("@/app/api/v1/runs/[id]/rerun/route");
const { GET: historyRoute } = await import("@/app/api/v1/test-cases/[id]/history/route");
const { PATCH: suiteRoute } = await import("@/app/api/v1/suites/[id]/route");
const { POST: presetsRoute } = await import("@/app/api/v1/suites/[id]/presets/route");
const { GET: alertsRoute } = await import("@/app/api/v1/alerts/route");

type Outcome = "passed" | "failed" | "error";

let ctx: WorkspaceContext;
let suiteId: string;
let editor: string;
let viewer: string;

beforeAll(async () => {
  const made = await makeKeyedSuite(5, "http://127.0.0.1:9/v1", (i) => ({ tags: i % 2 === 0 ? ["even"] : ["odd"] }));
  ({ ctx, editor, viewer } = made);
  suiteId = made.suite.id;
});

/** A finished run of the suite with each trial's verdict by case name (index = trial; default passed). */
const runWithTrials = async (outcomes: Record<string, Outcome[]>, trials: number) =>
  (await runWithTrialOutcomes(ctx, suiteId, trials, outcomes)).id;

const api = {
  start: (body: unknown, token = editor) => call(startRoute, { method: "POST", token, body, params: { id: suiteId } }),
  run: (id: string) => call(runRoute, { token: viewer, params: { id } }),
  results: (id: string, query = "") => call(resultsRoute, { url: `/api/v1/runs/${id}/results${query}`, token: viewer, params: { id } }),
  cases: (id: string, query = "") => call(casesRoute, { url: `/api/v1/runs/${id}/cases${query}`, token: viewer, params: { id } }),
  rerun: (id: string, body: unknown, token = editor) => call(rerunRoute, { method: "POST", token, body, params: { id } }),
};

// case 0 always passes, 1 is flaky, 2 always fails, 3 always errors, 4 passed once, errored once, failed once.
const MIXED: Record<string, Outcome[]> = {
  "case 1": ["passed", "failed", "passed"],
  "case 2": ["failed", "failed", "failed"],
  "case 3": ["error", "error", "error"],
  "case 4": ["passed", "error", "failed"],
};

describe("POST /api/v1/suites/{id}/runs with trials", () => {
  it("runs every case `trials` times, trial 0 of every case first", async () => {
    const res = await api.start({ trials: 3 });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ trials: 3, total_cases: 15, rerun_of: null });
    const page = await api.results(res.json.id, "?limit=100");
    const order = page.json.data.map((r: { trial: number; name: string }) => `${r.trial}:${r.name}`);
    expect(order).toEqual([0, 1, 2].flatMap((t) => [0, 1, 2, 3, 4].map((i) => `${t}:case ${i}`)));
    const second = await api.results(res.json.id, "?trial=1");
    expect(second.json.data.map((r: { trial: number }) => r.trial)).toEqual([1, 1, 1, 1, 1]);
  });

  it("refuses trials outside 1–20 or not whole, naming the field", async () => {
    for (const trials of [0, 21, 2.5, "3"]) {
      const res = await api.start({ trials });
      expect(res.status).toBe(400);
      expect(res.json.error.issues.map((i: { path: string }) => i.path)).toEqual(["trials"]);
    }
    const bad = await api.results((await api.start({})).json.id, "?trial=20");
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues[0].path).toBe("trial");
  });

  it("takes the preset's trials, else the suite's default_trials, when the run does not say", async () => {
    expect((await api.start({})).json.trials).toBe(1);
    const patched = await call(suiteRoute, { method: "PATCH", token: editor, body: { default_trials: 2 }, params: { id: suiteId } });
    expect(patched.status).toBe(200);
    expect(patched.json.default_trials).toBe(2);
    expect((await api.start({})).json).toMatchObject({ trials: 2, total_cases: 10 });
    const preset = await call(presetsRoute, { method: "POST", token: editor, body: { name: "four", trials: 4 }, params: { id: suiteId } });
    expect(preset.status).toBe(201);
    expect(preset.json.trials).toBe(4);
    expect((await api.start({ preset: "four" })).json.trials).toBe(4);
    expect((await api.start({ preset: "four", trials: 1 })).json.trials).toBe(1);
    const tooMany = await call(suiteRoute, { method: "PATCH", token: editor, body: { default_trials: 21 }, params: { id: suiteId } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.issues[0].path).toBe("default_trials");
    await call(suiteRoute, { method: "PATCH", token: editor, body: { default_trials: 1 }, params: { id: suiteId } });
  });
});

describe("per-case figures and the run summary", () => {
  let runId: string;
  beforeAll(async () => {
    runId = await runWithTrials(MIXED, 3);
  });

  it("labels each case and leaves errors out of its pass rate", async () => {
    const res = await api.cases(runId);
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.json.data.map((c: { name: string }) => [c.name, c]));
    expect(res.json.data.map((c: { name: string }) => c.name)).toEqual(["case 0", "case 1", "case 2", "case 3", "case 4"]);
    expect(byName["case 0"]).toMatchObject({ trials: 3, passed_trials: 3, pass_rate: 1, pass_all_k: true, stability: "stable_pass" });
    expect(byName["case 1"]).toMatchObject({ passed_trials: 2, pass_rate: 2 / 3, pass_at_k: true, pass_all_k: false, stability: "flaky" });
    expect(byName["case 2"]).toMatchObject({ passed_trials: 0, pass_rate: 0, pass_at_k: false, stability: "stable_fail" });
    expect(byName["case 3"]).toMatchObject({ errored_trials: 3, pass_rate: null, pass_at_k: false, pass_all_k: false, stability: "error" });
    expect(byName["case 4"]).toMatchObject({ trials: 3, passed_trials: 1, errored_trials: 1, pass_rate: 0.5, stability: "flaky" });
    expect(byName["case 1"].results.map((r: { trial: number; status: string }) => `${r.trial}:${r.status}`)).toEqual([
      "0:passed",
      "1:failed",
      "2:passed",
    ]);
    const stored = await db.caseResult.findMany({ where: { runId, name: "case 1" }, orderBy: { repetition: "asc" }, select: { id: true } });
    expect(byName["case 1"].results.map((r: { id: string }) => r.id)).toEqual(stored.map((s) => s.id));
  });

  it("filters by stability and tag in SQL and pages with a cursor", async () => {
    const flaky = await api.cases(runId, "?stability=flaky");
    expect(flaky.json.data.map((c: { name: string }) => c.name)).toEqual(["case 1", "case 4"]);
    const even = await api.cases(runId, "?tag=even");
    expect(even.json.data.map((c: { name: string }) => c.name)).toEqual(["case 0", "case 2", "case 4"]);
    const first = await api.cases(runId, "?limit=2");
    expect(first.json.data).toHaveLength(2);
    const second = await api.cases(runId, `?limit=2&cursor=${encodeURIComponent(first.json.next_cursor)}`);
    const third = await api.cases(runId, `?limit=2&cursor=${encodeURIComponent(second.json.next_cursor)}`);
    expect([...first.json.data, ...second.json.data, ...third.json.data].map((c: { name: string }) => c.name)).toEqual([
      "case 0",
      "case 1",
      "case 2",
      "case 3",
      "case 4",
    ]);
    expect(third.json.next_cursor).toBeNull();
    const bad = await api.cases(runId, "?stability=wobbly");
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues[0].path).toBe("stability");
  });

  it("gives the run pass@1 with its interval, pass@k, pass^k and the flaky count, computed from the verdicts", async () => {
    const { json: run } = await api.run(runId);
    // Judged cases: 0 (1), 1 (2/3), 2 (0), 4 (1 of 2 judged); case 3 only errored.
    const passAt1 = (1 + 2 / 3 + 0 + 0.5) / 4;
    expect(run.trials).toBe(3);
    expect(run.summary).toMatchObject({
      trials: 3,
      judged_cases: 4,
      pass_at_k: 3 / 4,
      pass_all_k: 1 / 4,
      flaky_cases: 2,
      error_only_cases: 1,
      pass_at_1_ci95_method: expect.stringContaining("bootstrap"),
    });
    expect(run.summary.pass_at_1).toBeCloseTo(passAt1, 12);
    const [low, high] = run.summary.pass_at_1_ci95;
    expect(low).toBeLessThan(passAt1);
    expect(high).toBeGreaterThan(passAt1);
    // The same interval the pure function gives for these cases (fixed seed).
    const expected = runTrialStats(
      [
        [3, 3, 0],
        [3, 2, 0],
        [3, 0, 0],
        [3, 0, 3],
        [3, 1, 1],
      ].map(([trials, passed, errored]) => caseTrialStats({ trials: trials!, passed: passed!, errored: errored! })),
    );
    expect(run.summary.pass_at_1_ci95).toEqual(expected.pass_at_1_ci95);
  });

  it("gives a one-trial run the plain pass rate over judged cases and an interval", async () => {
    const id = await runWithTrials({ "case 2": ["failed"], "case 3": ["error"] }, 1);
    const { json: run } = await api.run(id);
    expect(run.summary).toMatchObject({ trials: 1, judged_cases: 4, pass_at_1: 0.75, pass_at_k: 0.75, pass_all_k: 0.75, flaky_cases: 0 });
    expect(run.summary.pass_at_1_ci95).toHaveLength(2);
    // The older figures read as before.
    expect(run).toMatchObject({ total_cases: 5, passed_cases: 3, pass_rate: 60 });
  });
});

describe("POST /api/v1/runs/{id}/rerun", () => {
  let runId: string;
  beforeAll(async () => {
    runId = await runWithTrials(MIXED, 3);
  });

  const namesOf = async (id: string) =>
    (await db.caseResult.findMany({ where: { runId: id, repetition: 0 }, orderBy: { position: "asc" }, select: { name: true } })).map(
      (r) => r.name,
    );

  it("runs exactly the cases `only` names, under the original's snapshot, linked by rerun_of", async () => {
    const failed = await api.rerun(runId, { only: "failed" });
    expect(failed.status).toBe(202);
    expect(failed.json).toMatchObject({ rerun_of: runId, trials: 3, total_cases: 9, status: "pending" });
    expect(await namesOf(failed.json.id)).toEqual(["case 1", "case 2", "case 4"]);
    const original = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { agentSnapshot: true, resolvedVariables: true } });
    const copy = await db.run.findUniqueOrThrow({
      where: { id: failed.json.id },
      select: { agentSnapshot: true, resolvedVariables: true },
    });
    expect(copy).toEqual(original);

    expect(await namesOf((await api.rerun(runId, { only: "flaky" })).json.id)).toEqual(["case 1", "case 4"]);
    expect(await namesOf((await api.rerun(runId, { only: "errors" })).json.id)).toEqual(["case 3", "case 4"]);
    const all = await api.rerun(runId, { only: "all", trials: 1 });
    expect(all.json).toMatchObject({ trials: 1, total_cases: 5 });
  });

  it("re-runs the cases of the selected results (any trial selects its case), and only this run's", async () => {
    const rows = await db.caseResult.findMany({ where: { runId }, select: { id: true, name: true, repetition: true } });
    const pick = (name: string, trial: number) => rows.find((r) => r.name === name && r.repetition === trial)!.id;
    const picked = await api.rerun(runId, { only: "selected", case_result_ids: [pick("case 4", 2), pick("case 0", 0), pick("case 4", 0)] });
    expect(picked.status).toBe(202);
    expect(picked.json).toMatchObject({ rerun_of: runId, trials: 3, total_cases: 6 });
    expect(await namesOf(picked.json.id)).toEqual(["case 0", "case 4"]);

    // Results of another run select nothing here.
    const other = await runWithTrials({}, 1);
    const foreign = (await db.caseResult.findFirstOrThrow({ where: { runId: other }, select: { id: true } })).id;
    const none = await api.rerun(runId, { only: "selected", case_result_ids: [foreign] });
    expect(none.status).toBe(400);
    expect(none.json.error.issues[0].path).toBe("case_result_ids");

    const missing = await api.rerun(runId, { only: "selected" });
    expect(missing.status).toBe(400);
    expect(missing.json.error.issues[0].path).toBe("case_result_ids");
    expect((await api.rerun(runId, { only: "failed", case_result_ids: [foreign] })).json.error.issues[0].path).toBe("case_result_ids");
    expect((await api.rerun(runId, { only: "selected", case_result_ids: ["nope"] })).json.error.issues[0].path).toBe("case_result_ids.0");
    expect((await api.rerun(runId, { only: "selected", case_result_ids: [pick("case 0", 0)] }, viewer)).status).toBe(403);
  });

  it("answers 400 naming the field for bad bodies or no matching case, 409 for a run still going, 403 for a viewer", async () => {
    const bad = await api.rerun(runId, { only: "passed" });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues[0].path).toBe("only");
    expect((await api.rerun(runId, { only: "all", trials: 0 })).json.error.issues[0].path).toBe("trials");
    const clean = await runWithTrials({}, 1);
    const none = await api.rerun(clean, { only: "failed" });
    expect(none.status).toBe(400);
    expect(none.json.error.issues[0].path).toBe("only");
    const pending = await api.start({});
    expect((await api.rerun(pending.json.id, { only: "all" })).status).toBe(409);
    expect((await api.rerun(runId, { only: "all" }, viewer)).status).toBe(403);
  });
});

describe("GET /api/v1/test-cases/{id}/history", () => {
  it("lists the case's results newest first with the flip rate over the judged ones", async () => {
    const made = await makeKeyedSuite(1, "http://127.0.0.1:9/v1");
    const caseId = (await db.testCase.findFirstOrThrow({ where: { suiteId: made.suite.id } })).id;
    const outcomes: Outcome[] = ["passed", "failed", "error", "failed", "passed"];
    for (const status of outcomes) {
      const run = await startRun(made.ctx, made.suite.id, {}, "api");
      await db.caseResult.updateMany({ where: { runId: run.id }, data: { status, startedAt: new Date(), completedAt: new Date() } });
      await finalizeRunIfDone(run.id);
    }
    const res = await call(historyRoute, { url: `/api/v1/test-cases/${caseId}/history`, token: made.viewer, params: { id: caseId } });
    expect(res.status).toBe(200);
    expect(res.json.results.map((r: { status: string }) => r.status)).toEqual([...outcomes].reverse());
    expect(res.json.results.map((r: { run_number: number }) => r.run_number)).toEqual([5, 4, 3, 2, 1]);
    // Judged, oldest first: passed, failed, failed, passed → 2 changes over 3 steps.
    expect(res.json.flip_rate).toBeCloseTo(2 / 3, 12);
    const short = await call(historyRoute, {
      url: `/api/v1/test-cases/${caseId}/history?limit=2`,
      token: made.viewer,
      params: { id: caseId },
    });
    expect(short.json.results).toHaveLength(2);
    expect(short.json.flip_rate).toBe(1);
    const other = await call(historyRoute, { url: `/api/v1/test-cases/${caseId}/history`, token: viewer, params: { id: caseId } });
    expect(other.status).toBe(404);
  });
});

describe("regression alerts with trials", () => {
  it("drop by pass@1 and list cases flaky in either run apart from the regressions", async () => {
    const made = await makeKeyedSuite(4, "http://127.0.0.1:9/v1");
    const write = async (outcomes: Record<string, Outcome[]>) => (await runWithTrialOutcomes(made.ctx, made.suite.id, 2, outcomes)).id;
    await write({});
    const bad = await write({ "case 0": ["failed", "failed"], "case 1": ["passed", "failed"] });
    const alerts = await waitFor(
      () => call(alertsRoute, { url: `/api/v1/alerts?suite_id=${made.suite.id}`, token: made.viewer }),
      (r) => r.json?.data?.length === 1,
    );
    const [alert] = alerts.json.data;
    // pass@1: (0 + 0.5 + 1 + 1) / 4 = 62.5 % against 100 %.
    expect(alert).toMatchObject({ run_id: bad, previous_pass_rate: 100, pass_rate: 62.5, drop_points: 37.5 });
    expect(alert.flipped_cases.map((c: { name: string; to: string }) => `${c.name}:${c.to}`)).toEqual(["case 0:failed"]);
    expect(alert.flaky_cases).toEqual([expect.objectContaining({ name: "case 1", flaky: "trials", to: "failed" })]);
  });
});
