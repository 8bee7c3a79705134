import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { GET as listAlertsRoute } from "@/app/api/v1/alerts/route";
import { POST as acknowledgeRoute } from "@/app/api/v1/alerts/[id]/acknowledge/route";
import { DELETE as unpinRoute, POST as pinRoute } from "@/app/api/v1/runs/[id]/pin-baseline/route";
import { acknowledgeAlert, countOpenAlerts, openSuiteAlert } from "@/lib/alerts/service";
import { addMember, ALERT_FIELDS, makeApiKey, makeWorkspace, makeSuiteWithCases, runWithOutcomes } from "../helpers/factories";
import { call } from "../helpers/api";

/** A suite with `alerts` regression alerts (each run worse than the one before). */
async function suiteWithAlerts(ctx: Parameters<typeof runWithOutcomes>[0], alerts: number) {
  const { suite } = await makeSuiteWithCases(ctx, alerts + 1);
  await db.suite.update({ where: { id: suite.id }, data: { alertThresholdPercent: 1 } });
  const runs = [await runWithOutcomes(ctx, suite.id)];
  const failing: Record<string, "failed"> = {};
  for (let i = 0; i < alerts; i++) {
    failing[`case ${i}`] = "failed";
    runs.push(await runWithOutcomes(ctx, suite.id, { ...failing }));
  }
  return { suiteId: suite.id, runs };
}

describe("GET /api/v1/alerts", () => {
  it("lists alerts newest first with the issue's fields, filtered by suite and acknowledged state, paginated", async () => {
    const { ctx, workspace } = await makeWorkspace("owner");
    const token = await makeApiKey(workspace.id, "viewer");
    const a = await suiteWithAlerts(ctx, 3);
    const b = await suiteWithAlerts(ctx, 1);

    const all = await call(listAlertsRoute, { url: "/api/v1/alerts", token });
    expect(all.status).toBe(200);
    expect(all.json.data).toHaveLength(4);
    expect(all.json.next_cursor).toBeNull();
    const first = all.json.data[0];
    expect(Object.keys(first)).toEqual(expect.arrayContaining([...ALERT_FIELDS]));
    expect(first).toMatchObject({ suite_id: b.suiteId, run_id: b.runs[1]!.id, baseline_run_id: b.runs[0]!.id, pass_rate: 50 });
    expect(first.flipped_cases).toEqual([expect.objectContaining({ name: "case 0", from: "passed", to: "failed" })]);

    const bySuite = await call(listAlertsRoute, { url: `/api/v1/alerts?suite_id=${a.suiteId}&limit=2`, token });
    expect(bySuite.json.data.map((x: { run_id: string }) => x.run_id)).toEqual([a.runs[3]!.id, a.runs[2]!.id]);
    const page2 = await call(listAlertsRoute, {
      url: `/api/v1/alerts?suite_id=${a.suiteId}&limit=2&cursor=${bySuite.json.next_cursor}`,
      token,
    });
    expect(page2.json.data.map((x: { run_id: string }) => x.run_id)).toEqual([a.runs[1]!.id]);
    expect(page2.json.next_cursor).toBeNull();

    await acknowledgeAlert(ctx, first.id);
    const open = await call(listAlertsRoute, { url: "/api/v1/alerts?acknowledged=false", token });
    expect(open.json.data).toHaveLength(3);
    const done = await call(listAlertsRoute, { url: "/api/v1/alerts?acknowledged=true", token });
    expect(done.json.data.map((x: { id: string }) => x.id)).toEqual([first.id]);

    expect((await call(listAlertsRoute, { url: "/api/v1/alerts?acknowledged=maybe", token })).status).toBe(400);
    expect((await call(listAlertsRoute, { url: "/api/v1/alerts?suite_id=nope", token })).status).toBe(400);
    expect((await call(listAlertsRoute, { url: "/api/v1/alerts?cursor=garbage!", token })).status).toBe(400);
    expect((await call(listAlertsRoute, { url: "/api/v1/alerts" })).status).toBe(401);
  });

  it("shows only the key's workspace", async () => {
    const { ctx } = await makeWorkspace("owner");
    await suiteWithAlerts(ctx, 1);
    const other = await makeWorkspace("owner");
    const token = await makeApiKey(other.workspace.id, "viewer");
    const res = await call(listAlertsRoute, { url: "/api/v1/alerts", token });
    expect(res.json.data).toEqual([]);
  });
});

describe("acknowledging", () => {
  it("records who and when (member or API key), once; the bell and the suite banner count only open alerts", async () => {
    const { ctx, workspace, user } = await makeWorkspace("owner");
    const { suiteId } = await suiteWithAlerts(ctx, 2);
    expect(await countOpenAlerts(ctx)).toBe(2);
    const banner = await openSuiteAlert(ctx, suiteId);
    expect(banner?.open).toBe(2);
    const [newest, older] = await db.regressionAlert.findMany({ where: { suiteId }, orderBy: { createdAt: "desc" } });
    expect(banner?.alert.id).toBe(newest!.id);

    // A viewer member acknowledges in the app.
    const viewer = await addMember(workspace.id, "viewer");
    const before = Date.now();
    const acked = await acknowledgeAlert(viewer.ctx, newest!.id);
    expect(acked.acknowledged_by).toEqual({ type: "user", id: viewer.user.id, name: viewer.user.email });
    expect(Date.parse(acked.acknowledged_at!)).toBeGreaterThanOrEqual(before - 1000);
    // A second acknowledgement (by the owner) keeps the first.
    const again = await acknowledgeAlert(ctx, newest!.id);
    expect(again.acknowledged_by?.id).toBe(viewer.user.id);
    expect(again.acknowledged_at).toBe(acked.acknowledged_at);
    expect(user.id).not.toBe(viewer.user.id);

    // An API key (viewer is enough) acknowledges over the API.
    const token = await makeApiKey(workspace.id, "viewer");
    const res = await call(acknowledgeRoute, { method: "POST", token, params: { id: older!.id } });
    expect(res.status).toBe(200);
    expect(res.json.acknowledged_by).toMatchObject({ type: "api_key", name: expect.stringContaining("key-") });
    const row = await db.regressionAlert.findUniqueOrThrow({ where: { id: older!.id } });
    expect(row.acknowledgedByKeyId).not.toBeNull();
    expect(row.acknowledgedByUserId).toBeNull();
    expect(row.acknowledgedAt).not.toBeNull();

    expect(await countOpenAlerts(ctx)).toBe(0);
    expect(await openSuiteAlert(ctx, suiteId)).toBeNull();

    // Another workspace's key cannot see or acknowledge it.
    const other = await makeWorkspace("owner");
    const foreign = await makeApiKey(other.workspace.id, "admin");
    expect((await call(acknowledgeRoute, { method: "POST", token: foreign, params: { id: older!.id } })).status).toBe(404);
  });
});

describe("POST/DELETE /api/v1/runs/{id}/pin-baseline", () => {
  it("pins and unpins a completed run (editor), refuses viewers and unfinished runs", async () => {
    const { ctx, workspace } = await makeWorkspace("owner");
    const { suite } = await makeSuiteWithCases(ctx, 2);
    const run = await runWithOutcomes(ctx, suite.id);
    const editor = await makeApiKey(workspace.id, "editor");
    const viewer = await makeApiKey(workspace.id, "viewer");

    expect((await call(pinRoute, { method: "POST", token: viewer, params: { id: run.id } })).status).toBe(403);
    const pinned = await call(pinRoute, { method: "POST", token: editor, params: { id: run.id } });
    expect(pinned.status).toBe(200);
    expect(pinned.json).toEqual({ suite_id: suite.id, baseline_run_id: run.id });
    expect((await db.suite.findUniqueOrThrow({ where: { id: suite.id } })).baselineRunId).toBe(run.id);

    const unpinned = await call(unpinRoute, { method: "DELETE", token: editor, params: { id: run.id } });
    expect(unpinned.json).toEqual({ suite_id: suite.id, baseline_run_id: null });

    await db.run.update({ where: { id: run.id }, data: { status: "running" } });
    const refused = await call(pinRoute, { method: "POST", token: editor, params: { id: run.id } });
    expect(refused.status).toBe(409);
    expect((await call(pinRoute, { method: "POST", token: editor, params: { id: "not-a-uuid" } })).status).toBe(404);
  });
});
