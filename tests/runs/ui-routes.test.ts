import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { addMember, countStatuses, makeWorkspace, makeSuiteWithCases, runRowData } from "../helpers/factories";
import { call } from "../helpers/api";
import { session } from "../helpers/session";

// The signed-in user is the only thing faked; membership, roles and scoping run for real.
vi.mock("@/lib/auth", () => import("../helpers/session"));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

const { GET: runRoute } = await import("@/app/api/w/[workspaceId]/runs/[runId]/route");
const { GET: resultsRoute } = await import("@/app/api/w/[workspaceId]/runs/[runId]/results/route");
const { GET: changesRoute } = await import("@/app/api/w/[workspaceId]/runs/[runId]/changes/route");
const { GET: reportRoute } = await import("@/app/api/w/[workspaceId]/runs/[runId]/report/route");
const { GET: caseResultRoute } = await import("@/app/api/w/[workspaceId]/case-results/[id]/route");
const { startRunAction, cancelRunAction } = await import("@/lib/runs/actions");
const { loadRunPage, loadSuiteRunsPage } = await import("@/lib/runs/loaders");

const redirectTarget = (err: unknown) => String((err as { digest?: string }).digest ?? "").split(";")[2];

type CaseStatus = "pending" | "running" | "passed" | "failed" | "skipped" | "error";

/** A finished (or running) run of `suiteId` with one case result per entry, linked to `testCaseIds` by position. */
async function makeRun(
  ctx: WorkspaceContext,
  suiteId: string,
  statuses: CaseStatus[],
  opts: { minute: number; testCaseIds?: string[]; status?: "running" | "completed" },
) {
  const createdAt = new Date(Date.parse("2026-03-01T10:00:00Z") + opts.minute * 60_000);
  return db.run.create({
    data: {
      ...runRowData(ctx, suiteId, opts.status ?? "completed", countStatuses(statuses)),
      triggeredBy: "manual",
      agentSnapshot: { name: "bot" },
      createdAt,
      startedAt: createdAt,
      completedAt: opts.status === "running" ? null : new Date(createdAt.getTime() + 5_000),
      results: {
        create: statuses.map((status, i) => ({
          workspaceId: ctx.workspaceId,
          testCaseId: opts.testCaseIds?.[i] ?? null,
          position: i,
          status,
          caseSnapshot: { name: `case ${i}` },
          name: `case ${i}`,
          tags: i % 2 === 0 ? ["even"] : ["odd"],
          transcript: [{ role: "user", content: `question ${i}` }],
          errorMessage: status === "failed" ? "1 of 1 outcome not met" : null,
        })),
      },
    },
    include: { results: { orderBy: { position: "asc" } } },
  });
}

let owner: Awaited<ReturnType<typeof makeWorkspace>>;

beforeEach(async () => {
  owner = await makeWorkspace("owner");
  session.userId = owner.user.id;
});

const params = (runId: string) => ({ workspaceId: owner.workspace.id, runId });

describe("run session routes", () => {
  it("serve the run and slim, filterable, paginated case rows to a viewer", async () => {
    const { suite } = await makeSuiteWithCases(owner.ctx, 0);
    const run = await makeRun(owner.ctx, suite.id, ["passed", "failed", "passed", "error", "running"], { minute: 1, status: "running" });
    const viewer = await addMember(owner.workspace.id, "viewer");
    session.userId = viewer.user.id;

    const got = await call(runRoute, { params: params(run.id) });
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ id: run.id, status: "running", total_cases: 5, done_cases: 4, passed_cases: 2 });

    // Failures first, then errors, passes and the rest.
    const first = await call(resultsRoute, { url: "/?limit=2", params: params(run.id) });
    expect(first.status).toBe(200);
    expect(first.json.data.map((r: { name: string }) => r.name)).toEqual(["case 1", "case 3"]);
    expect(first.json.data[0]).toMatchObject({ status: "failed", error_message: "1 of 1 outcome not met", tags: ["odd"] });
    expect(first.json).toMatchObject({ total: 5, counts: { passed: 2, failed: 1, error: 1, running: 1, pending: 0, skipped: 0 } });
    // Rows for the live table carry no transcript or snapshot.
    expect(first.json.data[0]).not.toHaveProperty("transcript");
    expect(first.json.data[0]).not.toHaveProperty("test_case");
    const second = await call(resultsRoute, { url: "/?limit=2&page=2", params: params(run.id) });
    expect(second.json.data.map((r: { name: string }) => r.name)).toEqual(["case 0", "case 2"]);

    const failed = await call(resultsRoute, { url: "/?status=failed", params: params(run.id) });
    expect(failed.json.data.map((r: { name: string }) => r.name)).toEqual(["case 1"]);
    const even = await call(resultsRoute, { url: "/?tag=even&sort=name", params: params(run.id) });
    expect(even.json.data.map((r: { name: string }) => r.name)).toEqual(["case 0", "case 2", "case 4"]);
    const bad = await call(resultsRoute, { url: "/?status=bogus", params: params(run.id) });
    expect(bad.status).toBe(400);
  });

  it("refuse signed-out users, non-members and runs of another workspace", async () => {
    const { suite } = await makeSuiteWithCases(owner.ctx, 0);
    const run = await makeRun(owner.ctx, suite.id, ["passed"], { minute: 1 });
    const other = await makeWorkspace("owner");
    const { suite: otherSuite } = await makeSuiteWithCases(other.ctx, 0);
    const foreign = await makeRun(other.ctx, otherSuite.id, ["failed"], { minute: 1 });

    session.userId = null;
    expect((await call(runRoute, { params: params(run.id) })).status).toBe(401);
    session.userId = other.user.id;
    expect((await call(runRoute, { params: params(run.id) })).status).toBe(404);
    session.userId = owner.user.id;
    // The run exists, but not in the workspace named by the URL.
    expect((await call(runRoute, { params: params(foreign.id) })).status).toBe(404);
    expect((await call(resultsRoute, { params: params(foreign.id) })).status).toBe(404);
    expect((await call(caseResultRoute, { params: { workspaceId: owner.workspace.id, id: foreign.results[0]!.id } })).status).toBe(404);
    expect((await call(runRoute, { params: params("not-a-uuid") })).status).toBe(404);
  });

  it("serve a case result with its LLM calls", async () => {
    const { suite } = await makeSuiteWithCases(owner.ctx, 0);
    const run = await makeRun(owner.ctx, suite.id, ["failed"], { minute: 1 });
    const result = run.results[0]!;
    await db.llmCall.create({
      data: {
        workspaceId: owner.workspace.id,
        runId: run.id,
        caseResultId: result.id,
        purpose: "judge",
        model: "gpt-4o-mini",
        request: { messages: [] },
        response: '{"o1":{}}',
      },
    });
    const got = await call(caseResultRoute, { params: { workspaceId: owner.workspace.id, id: result.id } });
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({
      id: result.id,
      run_id: run.id,
      status: "failed",
      transcript: [{ role: "user", content: "question 0" }],
    });
    expect(got.json.llm_calls).toEqual([
      expect.objectContaining({ purpose: "judge", model: "gpt-4o-mini", request: { messages: [] }, response: '{"o1":{}}' }),
    ]);
  });

  it("list regressions and fixes since the previous completed run", async () => {
    const { suite } = await makeSuiteWithCases(owner.ctx, 3);
    const ids = (await db.testCase.findMany({ where: { suiteId: suite.id }, orderBy: { sortOrder: "asc" }, select: { id: true } })).map(
      (t) => t.id,
    );
    await makeRun(owner.ctx, suite.id, ["passed", "failed", "passed"], { minute: 1, testCaseIds: ids });
    const current = await makeRun(owner.ctx, suite.id, ["failed", "passed", "passed"], { minute: 2, testCaseIds: ids });
    const got = await call(changesRoute, { params: params(current.id) });
    expect(got.status).toBe(200);
    expect(got.json.regressions).toEqual([
      expect.objectContaining({ id: current.results[0]!.id, name: "case 0", before: "passed", after: "failed" }),
    ]);
    expect(got.json.fixes).toEqual([
      expect.objectContaining({ id: current.results[1]!.id, name: "case 1", before: "failed", after: "passed" }),
    ]);
  });

  it("share a live run's changes between polls for a moment, and recompute on a fresh read or once it finished", async () => {
    const { suite } = await makeSuiteWithCases(owner.ctx, 2);
    const ids = (await db.testCase.findMany({ where: { suiteId: suite.id }, orderBy: { sortOrder: "asc" }, select: { id: true } })).map(
      (t) => t.id,
    );
    await makeRun(owner.ctx, suite.id, ["passed", "passed"], { minute: 1, testCaseIds: ids });
    const current = await makeRun(owner.ctx, suite.id, ["failed", "running"], { minute: 2, testCaseIds: ids, status: "running" });
    const poll = { params: params(current.id), headers: { "cache-control": "max-age=1" } };
    const first = await call(changesRoute, poll);
    expect(first.json.regressions.map((r: { name: string }) => r.name)).toEqual(["case 0"]);

    // The second case fails and the counters move: a poll within the moment gets the answer above.
    await db.caseResult.update({ where: { id: current.results[1]!.id }, data: { status: "failed" } });
    await db.run.update({ where: { id: current.id }, data: { failedCases: 2 } });
    const again = await call(changesRoute, poll);
    expect(again.json).toEqual(first.json);
    // The page's reads once the run has ended ask afresh.
    const fresh = await call(changesRoute, { params: params(current.id), headers: { "cache-control": "no-cache" } });
    expect(fresh.json.regressions.map((r: { name: string }) => r.name)).toEqual(["case 0", "case 1"]);

    // Finished: the final verdicts.
    await db.run.update({ where: { id: current.id }, data: { status: "completed", completedAt: new Date() } });
    const final = await call(changesRoute, poll);
    expect(final.json.regressions.map((r: { name: string }) => r.name)).toEqual(["case 0", "case 1"]);
  });

  it("load the run page: run, suite, tags, first page of rows, changes and baseline state, in the caller's workspace only", async () => {
    const { suite } = await makeSuiteWithCases(owner.ctx, 2, { tags: (i) => (i === 0 ? ["smoke", "billing"] : ["smoke"]) });
    const ids = (await db.testCase.findMany({ where: { suiteId: suite.id }, orderBy: { sortOrder: "asc" }, select: { id: true } })).map(
      (t) => t.id,
    );
    await makeRun(owner.ctx, suite.id, ["passed", "failed"], { minute: 1, testCaseIds: ids });
    const current = await makeRun(owner.ctx, suite.id, ["failed", "passed"], { minute: 2, testCaseIds: ids });
    const agent = await db.agent.findUniqueOrThrow({ where: { id: suite.agentId } });

    const page = await loadRunPage(owner.ctx, current.id, { status: "failed", tag: " " });
    expect(page.run).toMatchObject({ id: current.id, suite_id: suite.id, status: "completed", passed_cases: 1, failed_cases: 1 });
    expect(page.suite).toEqual({ id: suite.id, name: suite.name, deleted: false, agentName: agent.name });
    expect(page.tags).toEqual(["billing", "edge-case", "normal", "red-team", "smoke"]);
    expect(page.filters).toEqual({ status: "failed", tag: undefined });
    expect(page.results.data.map((r) => r.name)).toEqual(["case 0"]);
    expect(page.changes.regressions.map((r) => r.name)).toEqual(["case 0"]);
    expect(page.changes.fixes.map((r) => r.name)).toEqual(["case 1"]);
    expect(page.canEdit).toBe(true);
    expect(page.baseline).toEqual({ pinned: false, pinnable: true, canPin: true });

    await db.suite.update({ where: { id: suite.id }, data: { baselineRunId: current.id } });
    const viewer = await addMember(owner.workspace.id, "viewer");
    const asViewer = await loadRunPage(viewer.ctx, current.id, {});
    expect(asViewer.canEdit).toBe(false);
    expect(asViewer.baseline).toEqual({ pinned: true, pinnable: true, canPin: false });
    expect(asViewer.results.data.map((r) => r.name)).toEqual(["case 0", "case 1"]);

    // A suite in the trash still shows its name; no tags, and its runs cannot be pinned.
    await db.suite.update({ where: { id: suite.id }, data: { deletedAt: new Date() } });
    const trashed = await loadRunPage(owner.ctx, current.id, {});
    expect(trashed.suite).toEqual({ id: suite.id, name: suite.name, deleted: true, agentName: agent.name });
    expect(trashed.tags).toEqual([]);
    expect(trashed.baseline.pinnable).toBe(false);

    const other = await makeWorkspace("owner");
    await expect(loadRunPage(other.ctx, current.id, {})).rejects.toThrow(NotFoundError);
    await expect(loadRunPage(owner.ctx, "not-a-uuid", {})).rejects.toThrow(NotFoundError);
  });

  it("serve reports as downloads, named after the suite and the run's number", async () => {
    const { suite } = await makeSuiteWithCases(owner.ctx, 0);
    await db.suite.update({ where: { id: suite.id }, data: { name: "Billing bot (EU)" } });
    await makeRun(owner.ctx, suite.id, ["passed"], { minute: 0 });
    const run = await makeRun(owner.ctx, suite.id, ["passed", "failed"], { minute: 1 });
    const csv = await call(reportRoute, { url: "/?format=csv", params: params(run.id) });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="assay-billing-bot-eu-run-2.csv"');
    expect(csv.text.split("\n")[0]).toContain("name");
    expect(csv.text).toContain("case 1");
    const junit = await call(reportRoute, { url: "/?format=junit", params: params(run.id) });
    expect(junit.text).toContain('failures="1"');
    expect((await call(reportRoute, { url: "/?format=pdf", params: params(run.id) })).status).toBe(400);
  });
});

describe("the suite's runs page", () => {
  it("lists the history by default and the experiments under kind=experiment; the charts keep to the history", async () => {
    const { suite } = await makeSuiteWithCases(owner.ctx, 0);
    const ordinary = await makeRun(owner.ctx, suite.id, ["passed"], { minute: 1 });
    const comparison = await db.comparison.create({
      data: { workspaceId: owner.workspace.id, suiteId: suite.id, name: "A/B", status: "completed" },
    });
    const arm = await makeRun(owner.ctx, suite.id, ["failed"], { minute: 2 });
    await db.run.update({ where: { id: arm.id }, data: { comparisonId: comparison.id, armIndex: 1 } });

    const history = await loadSuiteRunsPage(owner.ctx, suite.id, {});
    expect(history.location.kind).toBe("ordinary");
    expect(history.runs.data.map((r) => [r.number, r.experiment])).toEqual([[1, false]]);
    expect(history.analytics.latest).toMatchObject({ id: ordinary.id, number: 1 });
    expect(history.analytics.trend.map((p) => p.number)).toEqual([1]);

    const experiments = await loadSuiteRunsPage(owner.ctx, suite.id, { kind: "experiment" });
    expect(experiments.location.kind).toBe("experiment");
    expect(experiments.runs.data).toMatchObject([{ id: arm.id, number: 2, experiment: true, comparison_id: comparison.id, arm_index: 1 }]);
    expect(experiments.analytics.trend.map((p) => p.number)).toEqual([1]);

    // A stale cursor goes back to the first page of the same runs and status.
    const stale = await loadSuiteRunsPage(owner.ctx, suite.id, { kind: "experiment", status: "failed", cursor: "nope" }).catch((e) => e);
    expect(redirectTarget(stale)).toBe(`/w/${owner.workspace.id}/suites/${suite.id}/runs?kind=experiment&status=failed`);
  });
});

describe("run actions", () => {
  it("start a manual run for editors with inline errors, and refuse viewers", async () => {
    const { suite } = await makeSuiteWithCases(owner.ctx, 3, { tags: (i) => (i === 0 ? ["smoke"] : []) });
    const started = await startRunAction(owner.workspace.id, { suite_id: suite.id, options: { tags: ["smoke"], concurrency: 2 } });
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    expect(started.data).toMatchObject({ suite_id: suite.id, status: "pending", triggered_by: "manual", total_cases: 1, concurrency: 2 });

    const none = await startRunAction(owner.workspace.id, { suite_id: suite.id, options: { tags: ["no-such-tag"] } });
    expect(none).toMatchObject({
      ok: false,
      error: "No test cases match this selection",
      issues: [expect.objectContaining({ path: "tags" })],
    });
    const badConcurrency = await startRunAction(owner.workspace.id, { suite_id: suite.id, options: { concurrency: 0 } });
    expect(badConcurrency).toMatchObject({ ok: false, issues: [expect.objectContaining({ path: "concurrency" })] });
    const unknownVariable = await startRunAction(owner.workspace.id, { suite_id: suite.id, options: { variables: { Nope: 1 } } });
    expect(unknownVariable).toMatchObject({ ok: false, issues: [expect.objectContaining({ path: "variables.Nope" })] });

    const viewer = await addMember(owner.workspace.id, "viewer");
    session.userId = viewer.user.id;
    const refused = await startRunAction(owner.workspace.id, { suite_id: suite.id, options: {} });
    expect(refused.ok).toBe(false);
    expect(await db.run.count({ where: { suiteId: suite.id } })).toBe(1);
  });

  it("cancel a pending run once", async () => {
    const { suite } = await makeSuiteWithCases(owner.ctx, 2);
    const started = await startRunAction(owner.workspace.id, { suite_id: suite.id, options: {} });
    if (!started.ok) throw new Error(started.error);
    const cancelled = await cancelRunAction(owner.workspace.id, { id: started.data.id });
    expect(cancelled).toMatchObject({ ok: true, data: { status: "cancelled", skipped_cases: 2 } });
    const again = await cancelRunAction(owner.workspace.id, { id: started.data.id });
    expect(again).toMatchObject({ ok: false, error: "The run is already cancelled" });
  });
});
