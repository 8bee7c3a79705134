/**
 * Human review through the API: sending results to review, blind labels, several reviewers with
 * agreement and conflict, an admin's resolution, the human verdict beside the judge's (effective
 * status, the run's reviewed pass rate and summary), the queue's filters and pages, the JSONL
 * export, the suite's review rules when a run finishes (seeded, recorded sample; idempotent on
 * replay) and regression alerts over effective statuses. Verdicts are written directly (no model
 * is called): what is checked is what the review feature does with them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { applyReviewRules } from "@/lib/review/rules";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { call } from "../helpers/api";
import { addMember, makeApiKey, makeKeyedSuite, reportText, runWithOutcomes, runWithTrialOutcomes } from "../helpers/factories";

const itemsRoute = await import("@/app/api/v1/review-items/route");
const itemRoute = await import("@/app/api/v1/review-items/[id]/route");
const { POST: labelRoute } = await import("@/app/api/v1/review-items/[id]/labels/route");
const { POST: resolveRoute } = await import("@/app/api/v1/review-items/[id]/resolve/route");
const { GET: exportRoute } = await import("@/app/api/v1/review-items/export/route");
const { GET: runRoute } = await import("@/app/api/v1/runs/[id]/route");
const { GET: caseResultRoute } = await import("@/app/api/v1/case-results/[id]/route");
const { PATCH: suiteRoute } = await import("@/app/api/v1/suites/[id]/route");
const { GET: alertsRoute } = await import("@/app/api/v1/alerts/route");

let ctx: WorkspaceContext;
let workspaceId: string;
let suiteId: string;
let editor: string;
let editor2: string;
let viewer: string;
let admin: string;

beforeAll(async () => {
  const made = await makeKeyedSuite(6, "http://127.0.0.1:9/v1", (i) =>
    i === 0
      ? {
          expectedOutcomes: { "refund offered": true, apologised: true },
          checks: [
            { type: "contains_phrases", phrases: ["refund"], case_sensitive: false },
            { type: "llm_judge", expected_answer: "A refund", criteria: "Offers a refund" },
          ],
        }
      : {},
  );
  ({ ctx, editor, viewer } = made);
  workspaceId = made.workspace.id;
  suiteId = made.suite.id;
  editor2 = await makeApiKey(workspaceId, "editor");
  admin = await makeApiKey(workspaceId, "admin");
});

const api = {
  send: (body: unknown, token = editor) => call(itemsRoute.POST, { method: "POST", token, body }),
  list: (query = "", token = viewer) => call(itemsRoute.GET, { url: `/api/v1/review-items${query}`, token }),
  get: (id: string, token = viewer) => call(itemRoute.GET, { token, params: { id } }),
  assign: (id: string, body: unknown, token = editor) => call(itemRoute.PATCH, { method: "PATCH", token, body, params: { id } }),
  label: (id: string, body: unknown, token = editor) => call(labelRoute, { method: "POST", token, body, params: { id } }),
  resolve: (id: string, body: unknown, token = admin) => call(resolveRoute, { method: "POST", token, body, params: { id } }),
  run: (id: string) => call(runRoute, { token: viewer, params: { id } }),
  result: (id: string) => call(caseResultRoute, { token: viewer, params: { id } }),
};

const resultsOf = async (runId: string) =>
  Object.fromEntries(
    (await db.caseResult.findMany({ where: { runId }, select: { id: true, name: true } })).map((r) => [r.name, r.id] as const),
  );

describe("sending results to review", () => {
  it("creates one item per finished result, returns the existing item on a second send, in one request", async () => {
    const run = await runWithOutcomes(ctx, suiteId, { "case 1": "failed", "case 2": "error" });
    const ids = await resultsOf(run.id);
    const first = await api.send({ case_result_ids: [ids["case 1"], ids["case 2"]] });
    expect(first.status).toBe(201);
    expect(first.json.created).toBe(2);
    expect(first.json.data).toHaveLength(2);
    expect(first.json.data[0]).toMatchObject({ status: "open", source: "manual", required_reviews: 1, label_count: 0, run_id: run.id });
    const again = await api.send({ case_result_ids: [ids["case 1"], ids["case 3"]] });
    expect(again.status).toBe(201);
    expect(again.json.created).toBe(1);
    expect(new Set(again.json.data.map((i: { case_result_id: string }) => i.case_result_id))).toEqual(
      new Set([ids["case 1"], ids["case 3"]]),
    );
    expect(await db.reviewItem.count({ where: { runId: run.id } })).toBe(3);
  });

  it("refuses bad input naming the field, unknown results with 404, unfinished ones with 409, viewers with 403", async () => {
    const bad = await api.send({ case_result_ids: ["nope"] });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues[0].path).toBe("case_result_ids.0");
    expect((await api.send({ case_result_ids: [] })).json.error.issues[0].path).toBe("case_result_ids");
    expect((await api.send({ case_result_ids: ["00000000-0000-4000-8000-000000000000"] })).status).toBe(404);
    const pending = await db.caseResult.findFirstOrThrow({
      where: { run: { suiteId }, status: { in: ["passed"] } },
      select: { id: true },
    });
    await db.caseResult.update({ where: { id: pending.id }, data: { status: "running" } });
    const refused = await api.send({ case_result_ids: [pending.id] });
    await db.caseResult.update({ where: { id: pending.id }, data: { status: "passed" } });
    expect(refused.status).toBe(409);
    expect(refused.json.error.issues[0].path).toBe("case_result_ids.0");
    expect((await api.send({ case_result_ids: [pending.id] }, viewer)).status).toBe(403);
    expect(await db.reviewItem.count({ where: { caseResultId: pending.id } })).toBe(0);
  });

  it("assigns only to members of the workspace", async () => {
    const run = await runWithOutcomes(ctx, suiteId, {});
    const ids = await resultsOf(run.id);
    const member = await addMember(workspaceId, "editor");
    const sent = await api.send({ case_result_ids: [ids["case 4"]], assignee_id: member.user.id });
    expect(sent.json.data[0].assignee_id).toBe(member.user.id);
    const stranger = await db.user.create({ data: { email: `stranger-${Date.now()}@example.test` } });
    const refused = await api.assign(sent.json.data[0].id, { assignee_id: stranger.id });
    expect(refused.status).toBe(400);
    expect(refused.json.error.issues[0].path).toBe("assignee_id");
    const cleared = await api.assign(sent.json.data[0].id, { assignee_id: null });
    expect(cleared.json.assignee_id).toBeNull();
  });
});

describe("labels: blind, one per reviewer, several reviewers, conflicts", () => {
  let runId: string;
  let itemId: string;
  let caseResultId: string;

  beforeAll(async () => {
    await call(suiteRoute, { method: "PATCH", token: editor, body: { required_reviews: 2 }, params: { id: suiteId } });
    const run = await runWithOutcomes(ctx, suiteId, { "case 0": "failed", "case 5": "failed" });
    runId = run.id;
    caseResultId = (await resultsOf(runId))["case 0"]!;
    await db.caseResult.update({
      where: { id: caseResultId },
      data: {
        failureReasons: ["1 of 2 outcomes not met"],
        outcomeResults: [
          {
            key: "o1",
            label: "refund offered",
            expected: true,
            passed: false,
            reasoning: "No refund in the transcript",
            evidence_turns: [],
          },
          { key: "o2", label: "apologised", expected: true, passed: true, reasoning: "Said sorry", evidence_turns: [1] },
        ],
        checkResults: [
          { check_index: 0, check_type: "contains_phrases", passed: false, details: { missing_phrases: ["refund"] } },
          { check_index: 1, check_type: "llm_judge", passed: false, details: { judgement: "fail", reasoning: "No refund offered" } },
        ],
      },
    });
    itemId = (await api.send({ case_result_ids: [caseResultId] })).json.data[0].id;
    await call(suiteRoute, { method: "PATCH", token: editor, body: { required_reviews: 1 }, params: { id: suiteId } });
  });

  it("hides the judge from a reviewer until they label, and shows the case's expectations", async () => {
    const blind = await api.get(itemId, editor);
    expect(blind.status).toBe(200);
    expect(blind.json).toMatchObject({ judge_revealed: false, judge_verdict: null, judge_result: null, required_reviews: 2, labels: [] });
    // In the order the case's snapshot holds its outcomes (the outcome judge's o1…oN).
    expect(blind.json.elements.outcomes.toSorted((a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key))).toEqual([
      { key: "apologised", label: "apologised", expected: true },
      { key: "refund offered", label: "refund offered", expected: true },
    ]);
    // Only the llm_judge check is a judged element; contains_phrases is not the judge's.
    expect(blind.json.elements.checks).toEqual([{ key: "1", label: "Offers a refund", expected: "A refund" }]);
    expect(JSON.stringify(blind.json)).not.toContain("No refund");
    const listed = (await api.list(`?run_id=${runId}`, editor)).json.data[0];
    expect(listed).toMatchObject({ judge_revealed: false, judge_verdict: null, overturned: null });
  });

  it("refuses a label naming an element the case does not have, writing nothing", async () => {
    const res = await api.label(itemId, { verdict: "pass", outcomes: { "refund offered": true, "made up": false }, checks: { "0": true } });
    expect(res.status).toBe(400);
    expect(res.json.error.issues.map((i: { path: string }) => i.path)).toEqual(["outcomes.made up", "checks.0"]);
    expect((await api.label(itemId, { verdict: "maybe" })).json.error.issues[0].path).toBe("verdict");
    expect(await db.reviewLabel.count({ where: { itemId } })).toBe(0);
  });

  it("reveals the judge after labelling; a second label by the same reviewer replaces the first", async () => {
    const first = await api.label(itemId, { verdict: "fail", comment: "first thought" });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ status: "open", label_count: 1, judge_revealed: true, judge_verdict: "fail", my_verdict: "fail" });
    expect(first.json.elements.outcomes).toContainEqual({
      key: "refund offered",
      label: "refund offered",
      expected: true,
      judge_met: false,
      judge_reasoning: "No refund in the transcript",
    });
    const edited = await api.label(itemId, {
      verdict: "pass",
      outcomes: { "refund offered": true, apologised: true },
      checks: { "1": true },
    });
    expect(edited.json).toMatchObject({ status: "open", label_count: 1, my_verdict: "pass" });
    expect(edited.json.labels).toHaveLength(1);
    expect(edited.json.labels[0]).toMatchObject({
      verdict: "pass",
      outcomes: { "refund offered": true, apologised: true },
      checks: { "1": true },
      comment: null,
    });
    // Another reviewer still reviews blind, and does not see the first label.
    const other = await api.get(itemId, editor2);
    expect(other.json).toMatchObject({ judge_revealed: false, judge_verdict: null, labels: [], my_verdict: null });
  });

  it("closes as a conflict when the required labels disagree; only an admin resolves it, once", async () => {
    const conflict = await api.label(itemId, { verdict: "fail" }, editor2);
    expect(conflict.json).toMatchObject({ status: "conflict", label_count: 2, human_verdict: null });
    expect(conflict.json.closed_at).not.toBeNull();
    expect((await api.label(itemId, { verdict: "pass" }, editor2)).status).toBe(409);
    expect((await api.resolve(itemId, { verdict: "pass", comment: "refund was offered in turn 3" }, editor)).status).toBe(403);
    const resolved = await api.resolve(itemId, { verdict: "pass", comment: "refund was offered in turn 3" });
    expect(resolved.status).toBe(200);
    expect(resolved.json).toMatchObject({
      status: "resolved",
      human_verdict: "pass",
      judge_verdict: "fail",
      overturned: true,
      resolution: { verdict: "pass", comment: "refund was offered in turn 3" },
    });
    expect((await api.resolve(itemId, { verdict: "fail" })).status).toBe(409);
  });

  it("gives the result its human verdict beside the judge's, and the run its reviewed pass rate", async () => {
    const result = await api.result(caseResultId);
    expect(result.json).toMatchObject({ status: "failed", human_verdict: "pass", effective_status: "passed", overturned: true });
    const run = await api.run(runId);
    // 6 cases, 4 passed by the judge; one failure overturned to pass: 5 of 6.
    expect(run.json).toMatchObject({ pass_rate: 66.7, reviewed_cases: 1, overturned_cases: 1, pass_rate_reviewed: 83.3 });
    expect(run.json.summary).toMatchObject({ executed_pass_rate: 66.7, reviewed: 1, overturned: 1, pass_rate_reviewed: 83.3 });
    // The judge's verdict is never overwritten.
    expect(await db.caseResult.findUniqueOrThrow({ where: { id: caseResultId }, select: { status: true } })).toEqual({ status: "failed" });
  });

  it("agrees when the required labels give the same verdict, counting a confirmed judge as not overturned", async () => {
    const other = (await resultsOf(runId))["case 5"]!;
    const item = (await api.send({ case_result_ids: [other] })).json.data[0];
    expect(item.required_reviews).toBe(1);
    const agreed = await api.label(item.id, { verdict: "fail" });
    expect(agreed.json).toMatchObject({ status: "agreed", human_verdict: "fail", overturned: false });
    expect((await api.run(runId)).json).toMatchObject({ reviewed_cases: 2, overturned_cases: 1, pass_rate_reviewed: 83.3 });
  });

  it("puts the human verdicts in the run's reports", async () => {
    const markdown = await reportText(ctx, runId, "markdown");
    expect(markdown).toContain("**Human review**: 2 results reviewed, 1 overturned — reviewed pass rate 83.3% (judge: 66.7%)");
    expect(markdown.match(/\*\*Human verdict\*\*: pass \(overturns the judge\)/g)).toHaveLength(1);
    expect(markdown.match(/\*\*Human verdict\*\*: fail\n/g)).toHaveLength(1);
    const json = JSON.parse(await reportText(ctx, runId, "json"));
    expect(json.summary).toMatchObject({ reviewed: 2, overturned: 1, pass_rate_reviewed: 83.3 });
    const reviewed = json.results.filter((r: { human_verdict: string | null }) => r.human_verdict);
    expect(reviewed.map((r: { test_name: string; effective_status: string }) => `${r.test_name}:${r.effective_status}`).sort()).toEqual([
      "case 0:passed",
      "case 5:failed",
    ]);
  });
});

describe("the queue", () => {
  it("filters by status, run, overturned and the caller's to-do, in keyset pages", async () => {
    await call(suiteRoute, { method: "PATCH", token: editor, body: { required_reviews: 1 }, params: { id: suiteId } });
    const run = await runWithOutcomes(ctx, suiteId, { "case 1": "failed", "case 2": "failed", "case 3": "failed" });
    const ids = await resultsOf(run.id);
    await api.send({ case_result_ids: [ids["case 1"], ids["case 2"], ids["case 3"]] });
    const open = await api.list(`?run_id=${run.id}&status=open&limit=2`);
    expect(open.json.data).toHaveLength(2);
    const rest = await api.list(`?run_id=${run.id}&status=open&limit=2&cursor=${open.json.next_cursor}`);
    expect(rest.json.data).toHaveLength(1);
    expect(rest.json.next_cursor).toBeNull();
    const all = [...open.json.data, ...rest.json.data].map((i: { case_name: string }) => i.case_name).sort();
    expect(all).toEqual(["case 1", "case 2", "case 3"]);

    const [first] = open.json.data;
    await api.label(first.id, { verdict: "pass" });
    expect((await api.list(`?run_id=${run.id}&todo=true`, editor)).json.data).toHaveLength(2);
    expect((await api.list(`?run_id=${run.id}&status=agreed`)).json.data.map((i: { id: string }) => i.id)).toEqual([first.id]);
    expect((await api.list(`?run_id=${run.id}&overturned=true`)).json.data.map((i: { id: string }) => i.id)).toEqual([first.id]);
    expect((await api.list(`?status=nope`)).json.error.issues[0].path).toBe("status");
  });

  it("exports the labels of closed items as JSON Lines with the judge's and the human verdicts", async () => {
    const res = await call(exportRoute, { url: `/api/v1/review-items/export?suite_id=${suiteId}`, token: viewer });
    expect(res.status).toBe(200);
    const lines = res.text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const closed = await db.reviewItem.count({ where: { suiteId, status: { not: "open" } } });
    expect(lines).toHaveLength(closed);
    const resolved = lines.find((l) => l.human.status === "resolved");
    expect(resolved).toMatchObject({
      case: { name: "case 0" },
      judge: { verdict: "fail", model: "fake-model" },
      human: { verdict: "pass", resolution: { comment: "refund was offered in turn 3" } },
    });
    expect(resolved.labels.map((l: { verdict: string }) => l.verdict)).toEqual(["pass", "fail"]);
    expect(resolved.judge.result.outcome_results[0]).toMatchObject({ label: "refund offered", passed: false });
  });
});

describe("review rules when a run finishes", () => {
  it("queues failed results, a seeded sample of passed ones and the flaky cases' trials, once", async () => {
    const { ctx: c2, suite, editor: key } = await makeKeyedSuite(10, "http://127.0.0.1:9/v1");
    const patched = await call(suiteRoute, {
      method: "PATCH",
      token: key,
      body: { review_rules: { failed: true, passed_sample_percent: 50, flaky: true } },
      params: { id: suite.id },
    });
    expect(patched.json.review_rules).toEqual({ failed: true, passed_sample_percent: 50, flaky: true });
    // Two trials: case 0 fails both (failed), case 1 is flaky (passed then failed), the other 8 pass both (16 passed results).
    const run = await runWithTrialOutcomes(c2, suite.id, 2, { "case 0": ["failed", "failed"], "case 1": ["passed", "failed"] });
    const items = await db.reviewItem.findMany({
      where: { runId: run.id },
      select: { source: true, caseResult: { select: { name: true, status: true, repetition: true } } },
    });
    const by = (source: string) =>
      items
        .filter((i) => i.source === source)
        .map((i) => `${i.caseResult.name}:${i.caseResult.repetition}`)
        .sort();
    expect(by("failed")).toEqual(["case 0:0", "case 0:1", "case 1:1"]);
    expect(by("flaky")).toEqual(["case 1:0"]);
    // 17 passed results (case 1's first trial among them): round(17 × 50 %) = 9, minus the flaky one already queued.
    const sampled = by("sampled");
    const recorded = await db.run.findUniqueOrThrow({ where: { id: run.id }, select: { reviewSample: true } });
    expect(recorded.reviewSample).toMatchObject({ seed: run.id, passed_sample_percent: 50, sampled: 9 });
    // Applying the rules again (a replayed "run finished") picks the same results and creates nothing.
    expect(await applyReviewRules(run.id, c2.workspaceId)).toBe(0);
    expect(await db.reviewItem.count({ where: { runId: run.id } })).toBe(items.length);
    // The sample is the first 9 passed results in md5(run id || result id) order: computed here independently.
    const passed = await db.caseResult.findMany({
      where: { runId: run.id, status: "passed" },
      select: { id: true, name: true, repetition: true },
    });
    const { createHash } = await import("node:crypto");
    const md5 = (s: string) => createHash("md5").update(s).digest("hex");
    const expected = passed
      .toSorted((a, b) => (md5(run.id + a.id) < md5(run.id + b.id) ? -1 : 1))
      .slice(0, 9)
      .map((r) => `${r.name}:${r.repetition}`)
      .filter((k) => k !== "case 1:0")
      .sort();
    expect(sampled).toEqual(expected);
  });

  it("leaves a suite without rules alone", async () => {
    const { ctx: c3, suite } = await makeKeyedSuite(3, "http://127.0.0.1:9/v1");
    const run = await runWithOutcomes(c3, suite.id, { "case 0": "failed" });
    expect(await db.reviewItem.count({ where: { runId: run.id } })).toBe(0);
  });
});

describe("regression alerts over effective statuses", () => {
  it("compares with the baseline's reviewed verdicts: an overturned failure there makes today's failure a drop", async () => {
    const { ctx: c4, suite, editor: key, viewer: read } = await makeKeyedSuite(5, "http://127.0.0.1:9/v1");
    // The baseline: the judge failed case 1 (80 %); a reviewer says it passed (100 % effective).
    const baseline = await runWithOutcomes(c4, suite.id, { "case 1": "failed" });
    const failedId = (await resultsOf(baseline.id))["case 1"]!;
    const item = (await api.send({ case_result_ids: [failedId] }, key)).json.data[0];
    expect((await api.label(item.id, { verdict: "pass" }, key)).json.human_verdict).toBe("pass");
    // Today the judge fails case 1 again: 80 % against the baseline's effective 100 % is a 20-point drop.
    const today = await runWithOutcomes(c4, suite.id, { "case 1": "failed" });
    const alerts = await call(alertsRoute, { url: `/api/v1/alerts?suite_id=${suite.id}`, token: read });
    expect(alerts.json.data).toHaveLength(1);
    expect(alerts.json.data[0]).toMatchObject({ run_id: today.id, previous_pass_rate: 100, pass_rate: 80, drop_points: 20 });
    expect(alerts.json.data[0].flipped_cases.map((f: { name: string }) => f.name)).toEqual(["case 1"]);
  });
});
