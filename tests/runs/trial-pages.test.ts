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

const { GET: casesRoute } = await import("@/app/api/w/[workspaceId]/runs/[runId]/cases/route");
const { rerunRunAction } = await import("@/lib/runs/rerun-actions");
const { loadCaseResultPage, loadRunPage } = await import("@/lib/runs/loaders");

type CaseStatus = "pending" | "running" | "passed" | "failed" | "error";

/**
 * A run of the suite's cases with `statuses[case][trial]`, positions trial-major as the executor
 * lays them out, finished unless a status is still open.
 */
async function makeTrialRun(ctx: WorkspaceContext, suiteId: string, testCaseIds: string[], statuses: CaseStatus[][], minute: number) {
  const trials = statuses[0]!.length;
  const flat = statuses.flat();
  const open = flat.some((s) => s === "pending" || s === "running");
  const createdAt = new Date(Date.parse("2026-03-01T10:00:00Z") + minute * 60_000);
  return db.run.create({
    data: {
      ...runRowData(ctx, suiteId, open ? "running" : "completed", countStatuses(flat)),
      triggeredBy: "manual",
      agentSnapshot: { name: "bot" },
      trials,
      createdAt,
      startedAt: createdAt,
      completedAt: open ? null : new Date(createdAt.getTime() + 5_000),
      results: {
        create: statuses.flatMap((perTrial, c) =>
          perTrial.map((status, t) => ({
            workspaceId: ctx.workspaceId,
            testCaseId: testCaseIds[c]!,
            position: t * statuses.length + c,
            repetition: t,
            status,
            caseSnapshot: { id: testCaseIds[c], name: `case ${c}` },
            name: `case ${c}`,
            tags: [],
            createdAt: new Date(createdAt.getTime() + (t * statuses.length + c) * 1_000),
          })),
        ),
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

async function suiteOf(count: number) {
  const { suite } = await makeSuiteWithCases(owner.ctx, count);
  const ids = (await db.testCase.findMany({ where: { suiteId: suite.id }, orderBy: { sortOrder: "asc" }, select: { id: true } })).map(
    (t) => t.id,
  );
  return { suite, ids };
}

/** A suite with one case per row of `statuses` and its first run (minute 1) with those trial statuses. */
async function trialRunOf(statuses: CaseStatus[][]) {
  const { suite, ids } = await suiteOf(statuses.length);
  return { suite, ids, run: await makeTrialRun(owner.ctx, suite.id, ids, statuses, 1) };
}

describe("the run page's per-case route", () => {
  it("serves one row per case with its trial marks and stability, filtered by stability, to a viewer of the workspace only", async () => {
    const { run } = await trialRunOf([
      ["passed", "passed", "passed"],
      ["failed", "passed", "running"],
      ["failed", "failed", "pending"],
    ]);
    const viewer = await addMember(owner.workspace.id, "viewer");
    session.userId = viewer.user.id;
    const params = { workspaceId: owner.workspace.id, runId: run.id };

    const all = await call(casesRoute, { params });
    expect(all.status).toBe(200);
    expect(all.json.data.map((c: { name: string; stability: string }) => [c.name, c.stability])).toEqual([
      ["case 0", "stable_pass"],
      ["case 1", "flaky"],
      ["case 2", "stable_fail"],
    ]);
    expect(all.json.data[1].results.map((r: { trial: number; status: string }) => [r.trial, r.status])).toEqual([
      [0, "failed"],
      [1, "passed"],
      [2, "running"],
    ]);
    const flaky = await call(casesRoute, { url: "/?stability=flaky", params });
    expect(flaky.json.data.map((c: { name: string }) => c.name)).toEqual(["case 1"]);
    const paged = await call(casesRoute, { url: "/?limit=2", params });
    const next = await call(casesRoute, { url: `/?limit=2&cursor=${paged.json.next_cursor}`, params });
    expect(next.json.data.map((c: { name: string }) => c.name)).toEqual(["case 2"]);
    const bad = await call(casesRoute, { url: "/?stability=wobbly", params });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json.error)).toContain("stability is one of");

    const other = await makeWorkspace("owner");
    session.userId = other.user.id;
    expect((await call(casesRoute, { params })).status).toBe(404);
    session.userId = null;
    expect((await call(casesRoute, { params })).status).toBe(401);
  });
});

describe("the run page with trials", () => {
  it("loads the first page of cases (stability from the URL) and the run a re-run repeated", async () => {
    const { run } = await trialRunOf([
      ["passed", "failed"],
      ["passed", "passed"],
    ]);
    const page = await loadRunPage(owner.ctx, run.id, { stability: "flaky" });
    expect(page.caseFilters).toEqual({ stability: "flaky" });
    expect(page.cases?.data.map((c) => c.name)).toEqual(["case 0"]);
    expect(page.rerunOf).toBeNull();
    const ignored = await loadRunPage(owner.ctx, run.id, { stability: "wobbly" });
    expect(ignored.caseFilters).toEqual({ stability: undefined });
    expect(ignored.cases?.data).toHaveLength(2);

    const rerun = await rerunRunAction(owner.workspace.id, { id: run.id, only: "flaky" });
    if (!rerun.ok) throw new Error(rerun.error);
    expect(rerun.data).toMatchObject({ rerun_of: run.id, trials: 2, total_cases: 2 });
    const rerunPage = await loadRunPage(owner.ctx, rerun.data.id, {});
    expect(rerunPage.rerunOf).toEqual({ id: run.id, number: run.number });
  });

  it("a run with one trial has no per-case page", async () => {
    const { run } = await trialRunOf([["passed"], ["failed"]]);
    const page = await loadRunPage(owner.ctx, run.id, {});
    expect(page.cases).toBeNull();
  });
});

describe("re-run action", () => {
  it("re-runs for editors, says which scope matched nothing, and refuses viewers", async () => {
    const { suite, run } = await trialRunOf([
      ["passed", "passed"],
      ["failed", "failed"],
    ]);
    const none = await rerunRunAction(owner.workspace.id, { id: run.id, only: "flaky" });
    expect(none).toMatchObject({ ok: false, issues: [expect.objectContaining({ path: "only" })] });
    const bad = await rerunRunAction(owner.workspace.id, { id: run.id, only: "sometimes" as "all" });
    expect(bad).toMatchObject({ ok: false, issues: [expect.objectContaining({ path: "only" })] });

    const viewer = await addMember(owner.workspace.id, "viewer");
    session.userId = viewer.user.id;
    expect((await rerunRunAction(owner.workspace.id, { id: run.id, only: "all" })).ok).toBe(false);
    session.userId = owner.user.id;
    const failed = await rerunRunAction(owner.workspace.id, { id: run.id, only: "failed" });
    expect(failed).toMatchObject({ ok: true, data: { rerun_of: run.id, total_cases: 2, trials: 2 } });
    expect(await db.run.count({ where: { suiteId: suite.id } })).toBe(2);
  });
});

describe("the case view with trials", () => {
  it("loads the case's trials in this run and its history across runs with the flip rate", async () => {
    const { suite, ids, run: first } = await trialRunOf([["passed"], ["passed"]]);
    const run = await makeTrialRun(
      owner.ctx,
      suite.id,
      ids,
      [
        ["failed", "passed", "error"],
        ["passed", "passed", "passed"],
      ],
      2,
    );
    const trial1 = run.results.find((r) => r.testCaseId === ids[0] && r.repetition === 1)!;
    const page = await loadCaseResultPage(owner.ctx, run.id, trial1.id);
    expect(page.trials.map((t) => [t.trial, t.status])).toEqual([
      [0, "failed"],
      [1, "passed"],
      [2, "error"],
    ]);
    expect(page.trials[1]!.id).toBe(trial1.id);
    // Newest first: run 2's trials, then run 1's; judged oldest to newest: passed, failed, passed.
    expect(page.history?.results.map((r) => [r.run_number, r.trial, r.status])).toEqual([
      [run.number, 2, "error"],
      [run.number, 1, "passed"],
      [run.number, 0, "failed"],
      [first.number, 0, "passed"],
    ]);
    expect(page.history?.flip_rate).toBe(1);

    const single = await loadCaseResultPage(owner.ctx, first.id, first.results[0]!.id);
    expect(single.trials).toEqual([]);
    expect(single.history?.results).toHaveLength(4);

    const other = await makeWorkspace("owner");
    await expect(loadCaseResultPage(other.ctx, run.id, trial1.id)).rejects.toThrow(NotFoundError);
  });
});
