import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { getRetentionSettings, isInstanceAdmin, resolveRetentionSettings, updateRetentionSettings } from "@/lib/retention/service";
import { retentionSettingsForm } from "@/lib/retention/schemas";
import { makeWorkspace } from "../helpers/factories";

let admin: WorkspaceContext;
beforeAll(async () => {
  // The instance's first workspace: its admins administer instance-wide settings.
  admin = (await makeWorkspace("owner", "first")).ctx;
});

describe("retention settings precedence", () => {
  it("resolves database > env > default, per field, with the source", () => {
    expect(resolveRetentionSettings({}, {})).toEqual({
      cleanup_time: { value: "02:00", source: "default" },
      days: { value: 30, source: "default" },
      runs: { value: 30, source: "default" },
      traffic_days: { value: 14, source: "default" },
    });
    expect(resolveRetentionSettings({ days: 7 }, { cleanup_time: "04:15", days: 14, runs: 2, traffic_days: 3 })).toEqual({
      cleanup_time: { value: "04:15", source: "env" },
      days: { value: 7, source: "database" },
      runs: { value: 2, source: "env" },
      traffic_days: { value: 3, source: "env" },
    });
    // A stored value that no longer validates falls through to env/default.
    expect(resolveRetentionSettings({ cleanup_time: "25:99", runs: -1 }, { runs: 3 })).toMatchObject({
      cleanup_time: { value: "02:00", source: "default" },
      runs: { value: 3, source: "env" },
    });
  });

  it("stores, reads and clears database values (null → env/default again); omitted fields are untouched", async () => {
    const env = { days: 14 };
    expect(await getRetentionSettings(env)).toMatchObject({ days: { value: 14, source: "env" }, runs: { value: 30, source: "default" } });

    const set = await updateRetentionSettings(admin, { cleanup_time: "03:30", days: 1, runs: 5, traffic_days: 2 }, env);
    expect(set).toEqual({
      cleanup_time: { value: "03:30", source: "database" },
      days: { value: 1, source: "database" },
      runs: { value: 5, source: "database" },
      traffic_days: { value: 2, source: "database" },
    });
    expect(await db.instanceSetting.findUnique({ where: { key: "traffic.retention_days" } })).toMatchObject({ value: 2 });
    expect(await db.instanceSetting.findUnique({ where: { key: "test_suites.retention_days" } })).toMatchObject({ value: 1 });

    const cleared = await updateRetentionSettings(admin, { days: null }, env);
    expect(cleared).toEqual({
      cleanup_time: { value: "03:30", source: "database" },
      days: { value: 14, source: "env" },
      runs: { value: 5, source: "database" },
      traffic_days: { value: 2, source: "database" },
    });
    const allCleared = await updateRetentionSettings(admin, { cleanup_time: null, runs: null, traffic_days: null }, {});
    expect(Object.values(allCleared).map((s) => s.source)).toEqual(["default", "default", "default", "default"]);
    expect(await db.instanceSetting.count()).toBe(0);
  });

  it("refuses invalid values naming the field, and unknown fields", async () => {
    const issues = async (body: unknown) =>
      updateRetentionSettings(admin, body).then(
        () => [],
        (err: { issues: { path: string }[] }) => err.issues.map((i) => i.path),
      );
    expect(await issues({ days: -1 })).toEqual(["days"]);
    expect(await issues({ runs: 1.5 })).toEqual(["runs"]);
    expect(await issues({ cleanup_time: "2:00" })).toEqual(["cleanup_time"]);
    expect(await issues({ cleanup_time: "24:00", days: "7" })).toEqual(["cleanup_time", "days"]);
    expect(await issues({ retention_days: 3 })).toEqual([""]);
  });

  it("refuses 0 days and 0 runs (a cleanup could then delete every finished run), naming each field; a 0 stored earlier is ignored", async () => {
    const refused = await updateRetentionSettings(admin, { days: 0, runs: 0 }).catch((err: unknown) => err);
    expect(refused).toMatchObject({
      status: 400,
      issues: [
        { path: "days", message: expect.stringContaining("at least 1") },
        { path: "runs", message: expect.stringContaining("at least 1") },
      ],
    });
    expect(await db.instanceSetting.count({ where: { key: { in: ["test_suites.retention_days", "test_suites.retention_runs"] } } })).toBe(
      0,
    );
    expect(
      retentionSettingsForm
        .safeParse({ cleanup_time: "", days: "0", runs: "0", traffic_days: "" })
        .error?.issues.map((i) => i.path.join(".")),
    ).toEqual(["days", "runs"]);
    expect(resolveRetentionSettings({ days: 0, runs: 0 }, {})).toMatchObject({
      days: { value: 30, source: "default" },
      runs: { value: 30, source: "default" },
    });
    // The environment is held to the same floor: the app refuses to start with a clear message.
    vi.resetModules();
    process.env.TEST_SUITES_RETENTION_DAYS = "0";
    process.env.TEST_SUITES_RETENTION_RUNS = "0";
    try {
      await expect(import("@/lib/env")).rejects.toThrow(
        /TEST_SUITES_RETENTION_DAYS: Use a whole number ≥ 1\n\s+TEST_SUITES_RETENTION_RUNS: Use a whole number ≥ 1/,
      );
    } finally {
      delete process.env.TEST_SUITES_RETENTION_DAYS;
      delete process.env.TEST_SUITES_RETENTION_RUNS;
      vi.resetModules();
    }
  });

  it("only admins of the instance's first workspace administer them", async () => {
    expect(await isInstanceAdmin(admin)).toBe(true);
    expect(await isInstanceAdmin({ ...admin, role: "editor" })).toBe(false);
    const other = (await makeWorkspace("owner")).ctx;
    expect(await isInstanceAdmin(other)).toBe(false);
    await expect(updateRetentionSettings(other, { days: 1 })).rejects.toMatchObject({ status: 403 });
  });

  it("the page form: empty inputs clear, numbers are checked", () => {
    expect(retentionSettingsForm.parse({ cleanup_time: "", days: " 12 ", runs: "", traffic_days: " 7 " })).toEqual({
      cleanup_time: null,
      days: 12,
      runs: null,
      traffic_days: 7,
    });
    const bad = retentionSettingsForm.safeParse({ cleanup_time: "9am", days: "-3", runs: "x", traffic_days: "0" });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join("."))).toEqual(["cleanup_time", "days", "runs", "traffic_days"]);
  });
});
