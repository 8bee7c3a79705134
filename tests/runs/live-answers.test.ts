import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { addMember, makeWorkspace, makeSuiteWithCases } from "../helpers/factories";
import { call } from "../helpers/api";
import { session } from "../helpers/session";

// The signed-in user is the only thing faked; membership, roles and scoping run for real.
vi.mock("@/lib/auth", () => import("../helpers/session"));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

const { GET: runRoute } = await import("@/app/api/w/[workspaceId]/runs/[runId]/route");
const { GET: resultsRoute } = await import("@/app/api/w/[workspaceId]/runs/[runId]/results/route");
const { GET: caseResultRoute } = await import("@/app/api/w/[workspaceId]/case-results/[id]/route");
const { GET: v1RunRoute } = await import("@/app/api/v1/runs/[id]/route");
const { cancelRunAction } = await import("@/lib/runs/actions");
const { loadRunPage } = await import("@/lib/runs/loaders");
const { acceptedAgeMs, sharedAnswer, forgetAllAnswers, SHARE_MS } = await import("@/lib/runs/live-answers");
const { createApiKey } = await import("@/lib/api-keys/service");

let owner: Awaited<ReturnType<typeof makeWorkspace>>;

beforeEach(async () => {
  forgetAllAnswers();
  owner = await makeWorkspace("owner");
  session.userId = owner.user.id;
});

const POLL = { "cache-control": "max-age=1" };
const FRESH = { "cache-control": "no-cache" };

/** A run of `statuses` (one case result each), live unless `status` says otherwise. */
async function makeRun(statuses: ("pending" | "running" | "passed" | "failed")[], status: "running" | "completed" = "running") {
  const { suite } = await makeSuiteWithCases(owner.ctx, 0);
  return db.run.create({
    data: {
      workspaceId: owner.workspace.id,
      suiteId: suite.id,
      status,
      triggeredBy: "manual",
      agentSnapshot: { name: "bot" },
      totalCases: statuses.length,
      passedCases: statuses.filter((s) => s === "passed").length,
      startedAt: new Date(),
      completedAt: status === "completed" ? new Date() : null,
      results: {
        create: statuses.map((s, i) => ({
          workspaceId: owner.workspace.id,
          position: i,
          status: s,
          caseSnapshot: { name: `case ${i}` },
          name: `case ${i}`,
          transcript: [{ role: "user", content: `question ${i}` }],
        })),
      },
    },
    include: { results: { orderBy: { position: "asc" } } },
  });
}

const runParams = (runId: string, workspaceId = owner.workspace.id) => ({ workspaceId, runId });

describe("acceptedAgeMs: the request's Cache-Control", () => {
  it("accepts the default without a header, caps it with max-age and reads afresh on no-cache, no-store or max-age=0", () => {
    const age = (headers: Record<string, string>) => acceptedAgeMs(new Headers(headers));
    expect(age({})).toBe(SHARE_MS);
    expect(age({ "cache-control": "max-age=1" })).toBe(SHARE_MS);
    expect(age({ "cache-control": "max-age=0" })).toBe(0);
    expect(age({ "cache-control": "no-cache" })).toBe(0);
    expect(age({ "cache-control": "private, No-Store" })).toBe(0);
    expect(age({ "cache-control": "max-age=abc" })).toBe(SHARE_MS);
    // Pragma counts only without Cache-Control (RFC 9111); browsers add it next to their own.
    expect(age({ pragma: "no-cache" })).toBe(0);
    expect(age({ pragma: "no-cache", "cache-control": "max-age=1" })).toBe(SHARE_MS);
  });
});

describe("sharedAnswer", () => {
  const live = { runId: "r", maxAgeMs: SHARE_MS, live: () => true };

  it("joins a read in flight and keeps a live answer for the moment, but never an error", async () => {
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 20));
      return { n: loads };
    };
    const [a, b] = await Promise.all([sharedAnswer("k", live, load), sharedAnswer("k", live, load)]);
    expect(loads).toBe(1);
    expect(b.value).toBe(a.value);
    expect((await sharedAnswer("k", live, load)).value).toEqual({ n: 1 });
    expect((await sharedAnswer("k", { ...live, maxAgeMs: 0 }, load)).value).toEqual({ n: 2 });
    expect(a.json()).toBe('{"n":1}');

    let fail = true;
    const flaky = async () => {
      if (fail) throw new Error("database down");
      return "ok";
    };
    await expect(sharedAnswer("e", live, flaky)).rejects.toThrow("database down");
    fail = false;
    expect((await sharedAnswer("e", live, flaky)).value).toBe("ok");
  });

  it("keeps nothing about a finished run, and forgets what it kept about it", async () => {
    let status = "running";
    const load = async () => ({ status });
    const opts = { runId: "r2", maxAgeMs: SHARE_MS, live: (v: { status: string }) => v.status === "running" };
    const other = { ...opts, live: () => true };
    await sharedAnswer("a", opts, load);
    await sharedAnswer("b", other, async () => "rows then");
    status = "completed";
    expect((await sharedAnswer("a", { ...opts, maxAgeMs: 0 }, load)).value).toEqual({ status: "completed" });
    // That read found the run finished: the other answer about it is gone too.
    expect((await sharedAnswer("b", other, async () => "rows now")).value).toBe("rows now");
    status = "again";
    expect((await sharedAnswer("a", opts, load)).value).toEqual({ status: "again" });
  });
});

describe("the live run page's routes share answers between viewers", () => {
  it("give a poll the answer of a moment ago, a fresh read the current one, and the REST API always the current one", async () => {
    const run = await makeRun(["passed", "running"]);
    const first = await call(runRoute, { params: runParams(run.id), headers: POLL });
    expect(first.json).toMatchObject({ status: "running", passed_cases: 1 });
    // Kept by no cache on the way, and left alone by Next's per-response compression.
    expect(first.headers.get("cache-control")).toBe("private, no-store, no-transform");

    await db.run.update({ where: { id: run.id }, data: { passedCases: 2 } });
    expect((await call(runRoute, { params: runParams(run.id), headers: POLL })).json.passed_cases).toBe(1);
    expect((await call(runRoute, { params: runParams(run.id) })).json.passed_cases).toBe(1);
    expect((await call(runRoute, { params: runParams(run.id), headers: FRESH })).json.passed_cases).toBe(2);

    await db.run.update({ where: { id: run.id }, data: { passedCases: 3 } });
    const key = await createApiKey(owner.ctx, { name: "ci", role: "viewer" });
    expect((await call(v1RunRoute, { token: key.token, params: { id: run.id } })).json.passed_cases).toBe(3);

    // After the moment, a poll reads again.
    await new Promise((r) => setTimeout(r, SHARE_MS + 50));
    expect((await call(runRoute, { params: runParams(run.id), headers: POLL })).json.passed_cases).toBe(3);
  });

  it("share nothing across workspaces: another workspace's member gets a 404, not the kept answer", async () => {
    const run = await makeRun(["running"]);
    expect((await call(runRoute, { params: runParams(run.id), headers: POLL })).status).toBe(200);
    expect((await call(resultsRoute, { url: "/?limit=50", params: runParams(run.id), headers: POLL })).status).toBe(200);
    const other = await makeWorkspace("owner");
    session.userId = other.user.id;
    expect((await call(runRoute, { params: runParams(run.id, other.workspace.id), headers: POLL })).status).toBe(404);
    expect((await call(resultsRoute, { url: "/?limit=50", params: runParams(run.id, other.workspace.id), headers: POLL })).status).toBe(
      404,
    );
  });

  it("keep the case table per query, and read afresh once a read finds the run finished", async () => {
    const run = await makeRun(["running", "pending"]);
    const firstPage = await call(resultsRoute, { url: "/?limit=50", params: runParams(run.id), headers: POLL });
    expect(firstPage.json.data.map((r: { status: string }) => r.status)).toEqual(["running", "pending"]);
    const oneRow = await call(resultsRoute, { url: "/?limit=1", params: runParams(run.id), headers: POLL });
    expect(oneRow.json.data).toHaveLength(1);

    await db.caseResult.updateMany({ where: { runId: run.id }, data: { status: "passed" } });
    expect((await call(resultsRoute, { url: "/?limit=50", params: runParams(run.id), headers: POLL })).json.data[0].status).toBe("running");

    // The run ends (in another process: nothing here was told). The run's poll within the moment
    // still says running; the page's first fresh read sees the end and drops what was kept.
    await db.run.update({ where: { id: run.id }, data: { status: "completed", completedAt: new Date() } });
    expect((await call(runRoute, { params: runParams(run.id), headers: FRESH })).json.status).toBe("completed");
    const final = await call(resultsRoute, { url: "/?limit=50", params: runParams(run.id), headers: POLL });
    expect(final.json.data.map((r: { status: string }) => r.status)).toEqual(["passed", "passed"]);
  });

  it("show a cancel at once: cancelling forgets what was kept about the run", async () => {
    const run = await makeRun(["running", "pending"]);
    expect((await call(runRoute, { params: runParams(run.id), headers: POLL })).json.status).toBe("running");
    const page = await loadRunPage(owner.ctx, run.id, {}, SHARE_MS);
    expect(page.run.status).toBe("running");
    const cancelled = await cancelRunAction(owner.workspace.id, { id: run.id });
    expect(cancelled.ok).toBe(true);
    const after = await call(runRoute, { params: runParams(run.id), headers: POLL });
    expect(after.json.cancel_requested_at).not.toBeNull();
    expect((await loadRunPage(owner.ctx, run.id, {}, SHARE_MS)).run.cancel_requested_at).not.toBeNull();
  });

  it("keep an open case for the moment and a finished one never; a viewer role is enough", async () => {
    const run = await makeRun(["running", "passed"]);
    const viewer = await addMember(owner.workspace.id, "viewer");
    session.userId = viewer.user.id;
    const [open, done] = run.results;
    const caseParams = (id: string) => ({ workspaceId: owner.workspace.id, id });

    expect((await call(caseResultRoute, { params: caseParams(open!.id), headers: POLL })).json.status).toBe("running");
    expect((await call(caseResultRoute, { params: caseParams(done!.id), headers: POLL })).json.actual_response).toBeNull();
    await db.caseResult.update({ where: { id: open!.id }, data: { actualResponse: "later" } });
    await db.caseResult.update({ where: { id: done!.id }, data: { actualResponse: "edited" } });
    expect((await call(caseResultRoute, { params: caseParams(open!.id), headers: POLL })).json.actual_response).toBeNull();
    expect((await call(caseResultRoute, { params: caseParams(done!.id), headers: POLL })).json.actual_response).toBe("edited");
  });
});
