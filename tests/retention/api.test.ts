import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import * as settingsRoute from "@/app/api/v1/settings/retention/route";
import * as cleanupRoute from "@/app/api/v1/admin/cleanup/route";
import { call } from "../helpers/api";
import { makeApiKey, makeWorkspace } from "../helpers/factories";
import { makeSuiteWithCases } from "../runs/helpers";
import { makeRun } from "./helpers";

let adminKey: string;
let editorKey: string;
let otherAdminKey: string;
let workspace: Awaited<ReturnType<typeof makeWorkspace>>;

beforeAll(async () => {
  workspace = await makeWorkspace("owner", "instance");
  adminKey = await makeApiKey(workspace.workspace.id, "admin");
  editorKey = await makeApiKey(workspace.workspace.id, "editor");
  const other = await makeWorkspace("owner", "tenant");
  otherAdminKey = await makeApiKey(other.workspace.id, "admin");
});

const url = "/api/v1/settings/retention";

describe("GET/PATCH /api/v1/settings/retention", () => {
  it("returns each value with its source, and PATCH sets and clears them", async () => {
    const get = await call(settingsRoute.GET, { url, token: adminKey });
    expect(get.status).toBe(200);
    expect(get.json).toEqual({
      cleanup_time: { value: "02:00", source: "default" },
      days: { value: 30, source: "default" },
      runs: { value: 30, source: "default" },
      traffic_days: { value: 14, source: "default" },
    });
    const patched = await call(settingsRoute.PATCH, { url, method: "PATCH", token: adminKey, body: { days: 1, cleanup_time: "01:05" } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ cleanup_time: { value: "01:05", source: "database" }, days: { value: 1, source: "database" } });
    const cleared = await call(settingsRoute.PATCH, { url, method: "PATCH", token: adminKey, body: { days: null, cleanup_time: null } });
    expect(cleared.json).toMatchObject({ cleanup_time: { source: "default" }, days: { value: 30, source: "default" } });
  });

  it("400 naming the invalid field", async () => {
    const bad = await call(settingsRoute.PATCH, { url, method: "PATCH", token: adminKey, body: { days: -2, runs: "ten" } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues.map((i: { path: string }) => i.path)).toEqual(["days", "runs"]);
    // Zero would let a cleanup delete every finished run of every workspace.
    const zero = await call(settingsRoute.PATCH, { url, method: "PATCH", token: adminKey, body: { days: 0, runs: 0 } });
    expect(zero.status).toBe(400);
    expect(zero.json.error.issues.map((i: { path: string }) => i.path)).toEqual(["days", "runs"]);
    expect((await call(settingsRoute.GET, { url, token: adminKey })).json).toMatchObject({
      days: { source: "default" },
      runs: { source: "default" },
    });
    const time = await call(settingsRoute.PATCH, { url, method: "PATCH", token: adminKey, body: { cleanup_time: "7:00" } });
    expect(time.status).toBe(400);
    expect(time.json.error.issues[0]).toMatchObject({ path: "cleanup_time", message: "Use HH:MM (24-hour, UTC)" });
  });

  it("403 for editors and for admins of another workspace; 401 without a key", async () => {
    expect((await call(settingsRoute.GET, { url, token: editorKey })).status).toBe(403);
    expect((await call(settingsRoute.GET, { url, token: otherAdminKey })).status).toBe(403);
    expect((await call(settingsRoute.PATCH, { url, method: "PATCH", token: otherAdminKey, body: { days: 1 } })).status).toBe(403);
    expect((await call(settingsRoute.GET, { url, token: null })).status).toBe(401);
  });
});

describe("POST /api/v1/admin/cleanup", () => {
  it("dry_run=true counts without deleting; dry_run=false deletes the same", async () => {
    const { ctx } = workspace;
    const { suite } = await makeSuiteWithCases(ctx, 1);
    const [row] = await db.$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
    for (const days of [40, 41, 42]) await makeRun(ctx, suite.id, row!.now, days);
    await db.suite.update({ where: { id: suite.id }, data: { retentionRuns: 1 } });

    const dry = await call(cleanupRoute.POST, { url: "/api/v1/admin/cleanup?dry_run=true", method: "POST", token: adminKey });
    expect(dry.status).toBe(200);
    expect(dry.json).toMatchObject({ dry_run: true, runs_deleted: 2, results_deleted: 4, llm_calls_deleted: 6 });
    expect(await db.run.count({ where: { suiteId: suite.id } })).toBe(3);

    const real = await call(cleanupRoute.POST, {
      url: "/api/v1/admin/cleanup?dry_run=false&confirm=true",
      method: "POST",
      token: adminKey,
    });
    expect(real.json).toMatchObject({
      dry_run: false,
      runs_deleted: 2,
      results_deleted: 4,
      bytes_freed_estimate: dry.json.bytes_freed_estimate,
    });
    expect(await db.run.count({ where: { suiteId: suite.id } })).toBe(1);
  });

  it("a cleanup that would delete more than half of all finished runs needs confirm=true: 409 without it, and nothing is deleted", async () => {
    const { ctx } = workspace;
    const { suite } = await makeSuiteWithCases(ctx, 1);
    const [row] = await db.$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
    for (const days of [40, 41, 42, 43, 44, 45]) await makeRun(ctx, suite.id, row!.now, days);
    await db.suite.update({ where: { id: suite.id }, data: { retentionRuns: 1 } });
    const finished = await db.run.count({ where: { status: { in: ["completed", "failed", "cancelled"] } } });
    expect(5 * 2).toBeGreaterThan(finished);
    const records = await db.cleanupRecord.count();

    const refused = await call(cleanupRoute.POST, { url: "/api/v1/admin/cleanup", method: "POST", token: adminKey });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toEqual({
      code: "confirmation_required",
      message: `This cleanup would delete 5 of ${finished} finished runs, more than half of them: repeat it with confirm=true to go ahead`,
      issues: [{ path: "confirm", message: expect.any(String) }],
    });
    expect(await db.run.count({ where: { suiteId: suite.id } })).toBe(6);
    expect(await db.cleanupRecord.count()).toBe(records);
    // A dry run needs no confirmation; confirm=false is the same as leaving it out.
    expect(
      (await call(cleanupRoute.POST, { url: "/api/v1/admin/cleanup?dry_run=true", method: "POST", token: adminKey })).json,
    ).toMatchObject({
      runs_deleted: 5,
    });
    expect((await call(cleanupRoute.POST, { url: "/api/v1/admin/cleanup?confirm=false", method: "POST", token: adminKey })).status).toBe(
      409,
    );

    const confirmed = await call(cleanupRoute.POST, { url: "/api/v1/admin/cleanup?confirm=true", method: "POST", token: adminKey });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json).toMatchObject({ dry_run: false, runs_deleted: 5 });
    expect(await db.run.count({ where: { suiteId: suite.id } })).toBe(1);

    // Half or less goes ahead unasked.
    for (const days of [50, 51]) await makeRun(ctx, suite.id, row!.now, days);
    const small = await call(cleanupRoute.POST, { url: "/api/v1/admin/cleanup", method: "POST", token: adminKey });
    expect(small.status).toBe(200);
    expect(small.json.runs_deleted).toBe(2);
  });

  it("validates dry_run, confirm and the caller", async () => {
    const bad = await call(cleanupRoute.POST, { url: "/api/v1/admin/cleanup?dry_run=yes", method: "POST", token: adminKey });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues[0].path).toBe("dry_run");
    const badConfirm = await call(cleanupRoute.POST, { url: "/api/v1/admin/cleanup?confirm=please", method: "POST", token: adminKey });
    expect(badConfirm.status).toBe(400);
    expect(badConfirm.json.error.issues[0]).toMatchObject({ path: "confirm", message: "confirm must be true or false" });
    expect(
      (await call(cleanupRoute.POST, { url: "/api/v1/admin/cleanup?dry_run=true", method: "POST", token: otherAdminKey })).status,
    ).toBe(403);
    expect((await call(cleanupRoute.POST, { url: "/api/v1/admin/cleanup", method: "POST", token: editorKey })).status).toBe(403);
  });
});
