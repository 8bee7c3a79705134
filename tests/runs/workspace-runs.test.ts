import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { GET as listRunsRoute } from "@/app/api/v1/runs/route";
import { listWorkspaceRunsPage } from "@/lib/runs/workspace-runs/service";
import { workspaceRunsPageFilters } from "@/lib/runs/workspace-runs/loaders";
import { makeApiKey, makeWorkspace, makeSuiteWithCases, runRowData } from "../helpers/factories";
import { call } from "../helpers/api";

type Row = { id: string; suite_id: string; suite_name: string; metadata: Record<string, string> };

/** Two suites with runs of several statuses, triggers and branches (oldest first), and a foreign workspace's run. */
async function fixture() {
  const { ctx, workspace } = await makeWorkspace("owner");
  const token = await makeApiKey(workspace.id, "viewer");
  const a = (await makeSuiteWithCases(ctx, 1)).suite;
  const b = (await makeSuiteWithCases(ctx, 1)).suite;
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, i));
  const make = (suiteId: string, i: number, over: Record<string, unknown>) =>
    db.run.create({ data: { ...runRowData(ctx, suiteId, "completed", { passed: 1 }), createdAt: at(i), ...over } });
  const runs = [
    await make(a.id, 0, { metadata: { branch: "main" } }),
    await make(a.id, 1, { metadata: { branch: "feature/x", commit: "abc" }, status: "failed" }),
    await make(b.id, 2, { metadata: { branch: "main" }, triggeredBy: "schedule" }),
    await make(b.id, 3, { metadata: {}, status: "running" }),
  ];
  const other = await makeWorkspace("owner");
  const foreign = (await makeSuiteWithCases(other.ctx, 1)).suite;
  await db.run.create({ data: { ...runRowData(other.ctx, foreign.id, "completed", {}), metadata: { branch: "main" } } });
  return { ctx, token, a, b, runs };
}

describe("the workspace's runs list", () => {
  it("filters by suite, status, trigger and metadata, newest first, in the workspace only, with the total", async () => {
    const { ctx, a, b, runs } = await fixture();
    const ids = async (f: Parameters<typeof listWorkspaceRunsPage>[1]) => {
      const page = await listWorkspaceRunsPage(ctx, f, { offset: 0, limit: 50 });
      return { ids: page.rows.map((r) => r.id), total: page.total };
    };
    expect(await ids({})).toEqual({ ids: [runs[3]!.id, runs[2]!.id, runs[1]!.id, runs[0]!.id], total: 4 });
    expect(await ids({ suite_id: a.id })).toEqual({ ids: [runs[1]!.id, runs[0]!.id], total: 2 });
    expect(await ids({ status: "running" })).toEqual({ ids: [runs[3]!.id], total: 1 });
    expect(await ids({ trigger: "schedule" })).toEqual({ ids: [runs[2]!.id], total: 1 });
    expect(await ids({ metadata: { key: "branch", value: "main" } })).toEqual({ ids: [runs[2]!.id, runs[0]!.id], total: 2 });
    expect(await ids({ suite_id: b.id, metadata: { key: "branch", value: "main" } })).toEqual({ ids: [runs[2]!.id], total: 1 });

    const page = await listWorkspaceRunsPage(ctx, {}, { offset: 1, limit: 2 });
    expect(page.rows.map((r) => r.id)).toEqual([runs[2]!.id, runs[1]!.id]);
    expect(page.total).toBe(4);
    expect(page.rows[1]).toMatchObject({ suite_id: a.id, suite_name: a.name, metadata: { branch: "feature/x", commit: "abc" } });
  });

  it("GET /api/v1/runs pages by cursor under the same filters and names a bad parameter in a 400", async () => {
    const { token, a, runs } = await fixture();
    const first = await call(listRunsRoute, { url: "/api/v1/runs?limit=1&metadata=branch:main", token });
    expect(first.status).toBe(200);
    expect(first.json.data.map((r: Row) => r.id)).toEqual([runs[2]!.id]);
    const second = await call(listRunsRoute, { url: `/api/v1/runs?limit=1&metadata=branch:main&cursor=${first.json.next_cursor}`, token });
    expect(second.json.data.map((r: Row) => r.id)).toEqual([runs[0]!.id]);
    expect(second.json.next_cursor).toBeNull();

    const bySuite = await call(listRunsRoute, { url: `/api/v1/runs?suite_id=${a.id}&status=failed`, token });
    expect(bySuite.json.data.map((r: Row) => r.id)).toEqual([runs[1]!.id]);

    for (const [query, path] of [
      ["suite_id=nope", "suite_id"],
      ["status=done", "status"],
      ["trigger=cron", "trigger"],
      ["metadata=main", "metadata"],
      ["metadata=branch:%00", "metadata"],
      ["cursor=!!", "cursor"],
      ["limit=0", "limit"],
    ] as const) {
      const res = await call(listRunsRoute, { url: `/api/v1/runs?${query}`, token });
      expect(res.status, query).toBe(400);
      expect(
        res.json.error.issues.map((i: { path: string }) => i.path),
        query,
      ).toContain(path);
    }
  });

  it("reads the Runs page's filters from the URL, reporting a bad one on its field", () => {
    const parsed = workspaceRunsPageFilters({ suite: "nope", status: "failed", metadata: "branch: main ", page: "3" });
    expect(parsed.filters).toEqual({ status: "failed", metadata: { key: "branch", value: "main" }, kind: "ordinary" });
    expect(Object.keys(parsed.errors)).toEqual(["suite_id"]);
    expect(parsed.page).toBe(3);
    expect(workspaceRunsPageFilters({ page: "-1", metadata: "nokey" })).toMatchObject({
      page: 1,
      errors: { metadata: expect.any(String) },
    });
  });
});
