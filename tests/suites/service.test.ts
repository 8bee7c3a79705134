import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/errors";
import { createSuite, deleteSuite, getSuite, listSuites, restoreSuite, updateSuite } from "@/lib/suites/service";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { addMember, makeWorkspace, makeAgent, makeCases, makeModelConfig } from "../helpers/factories";
import { readAllPages } from "../helpers/api";
import { expectCreateRefused, issuesOf, paths } from "./helpers";

async function setup() {
  const { ctx, workspace } = await makeWorkspace("editor");
  const agent = await makeAgent(workspace.id);
  return { ctx, agent };
}

describe("createSuite", () => {
  it("creates a suite with the spec defaults and returns snake_case fields", async () => {
    const { ctx, agent } = await setup();
    const suite = await createSuite(ctx, { agent_id: agent.id, name: "  Smoke  " });
    expect(suite).toMatchObject({
      agent_id: agent.id,
      name: "Smoke",
      description: null,
      schedule_type: "manual",
      schedule_time: null,
      schedule_day_of_week: null,
      llm_judge_model_config_id: null,
      alert_on_regression: true,
      alert_threshold_percent: 10,
      is_enabled: true,
      variables: {},
      deleted_at: null,
    });
    expect(suite.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(suite).not.toHaveProperty("agent_name");
    const row = await db.suite.findUniqueOrThrow({ where: { id: suite.id } });
    expect(row.workspaceId).toBe(ctx.workspaceId);
    expect(row.createdById).toBe(ctx.userId);
  });

  it.each([
    [{ name: "" }, "name"],
    [{ name: "x".repeat(201) }, "name"],
    [{ agent_id: "not-a-uuid" }, "agent_id"],
    [{ description: "d".repeat(5001) }, "description"],
    [{ schedule_type: "monthly" }, "schedule_type"],
    [{ schedule_type: "daily", schedule_time: "25:00" }, "schedule_time"],
    [{ schedule_type: "daily", schedule_time: "9:00" }, "schedule_time"],
    [{ schedule_type: "daily" }, "schedule_time"],
    [{ schedule_type: "weekly", schedule_time: "09:00" }, "schedule_day_of_week"],
    [{ schedule_type: "weekly", schedule_time: "09:00", schedule_day_of_week: 7 }, "schedule_day_of_week"],
    [{ schedule_day_of_week: 1.5 }, "schedule_day_of_week"],
    [{ llm_judge_model_config_id: "nope" }, "llm_judge_model_config_id"],
    [{ alert_on_regression: "yes" }, "alert_on_regression"],
    [{ alert_threshold_percent: 0 }, "alert_threshold_percent"],
    [{ alert_threshold_percent: 101 }, "alert_threshold_percent"],
    [{ alert_threshold_percent: 12.5 }, "alert_threshold_percent"],
    [{ is_enabled: "true" }, "is_enabled"],
    [{ variables: { Temperature: { nested: 1 } } }, "variables.Temperature"],
    [{ variables: ["x"] }, "variables"],
  ])("refuses %j at %s", async (fields, path) => {
    const { ctx, agent } = await setup();
    await expectCreateRefused(ctx, agent.id, fields, path);
  });

  it.each([
    [
      { schedule_type: "weekly", schedule_time: "23:59", schedule_day_of_week: 0 },
      { schedule_type: "weekly", schedule_time: "23:59", schedule_day_of_week: 0 },
    ],
    [
      { schedule_type: "daily", schedule_time: "00:00", schedule_day_of_week: 3 },
      { schedule_time: "00:00", schedule_day_of_week: null },
    ],
    [
      { schedule_type: "manual", schedule_time: "10:00", schedule_day_of_week: 2 },
      { schedule_time: null, schedule_day_of_week: null },
    ],
    [
      { schedule_type: "hourly", schedule_time: "" },
      { schedule_type: "hourly", schedule_time: null },
    ],
  ])("accepts the full schedule %j and keeps only the schedule fields that apply", async (schedule, kept) => {
    const { ctx, agent } = await setup();
    expect(await createSuite(ctx, { agent_id: agent.id, name: "S", ...schedule })).toMatchObject(kept);
  });

  it("refuses an agent or judge configuration of another workspace", async () => {
    const { ctx, agent } = await setup();
    const other = await makeWorkspace("owner");
    const foreignAgent = await makeAgent(other.workspace.id);
    const foreignJudge = await makeModelConfig(other.workspace.id);
    expect(paths(await issuesOf(createSuite(ctx, { agent_id: foreignAgent.id, name: "S" })))).toEqual(["agent_id"]);
    expect(paths(await issuesOf(createSuite(ctx, { agent_id: agent.id, name: "S", llm_judge_model_config_id: foreignJudge.id })))).toEqual([
      "llm_judge_model_config_id",
    ]);
    const ownJudge = await makeModelConfig(ctx.workspaceId);
    const ok = await createSuite(ctx, { agent_id: agent.id, name: "S", llm_judge_model_config_id: ownJudge.id });
    expect(ok.llm_judge_model_config_id).toBe(ownJudge.id);
  });

  it("checks variable values against the agent's variables schema", async () => {
    const { ctx, agent } = await setup();
    const issues = await issuesOf(
      createSuite(ctx, {
        agent_id: agent.id,
        name: "Vars",
        variables: { AIConfiguration: "gemini-pro", Temperature: "hot", Verbose: "yes", AsOf: "tomorrow", Colour: "blue" },
      }),
    );
    const byPath = Object.fromEntries(issues.map((i) => [i.path, i.message]));
    expect(byPath["variables.AIConfiguration"]).toBe("Must be one of: gpt-4o, claude-opus");
    expect(byPath["variables.Temperature"]).toBe("Value must be a number");
    expect(byPath["variables.Verbose"]).toBe("Value must be true or false");
    expect(byPath["variables.AsOf"]).toMatch(/ISO date/);
    expect(byPath["variables.Colour"]).toMatch(/Unknown variable "Colour"/);
    expect(issues).toHaveLength(5);

    const values = { AIConfiguration: "claude-opus", Temperature: 0.2, Verbose: false, AsOf: "2026-01-31" };
    const ok = await createSuite(ctx, { agent_id: agent.id, name: "Vars", variables: values });
    expect(ok.variables).toEqual(values);
    expect((await getSuite(ctx, ok.id)).variables).toEqual(values);
  });

  it("refuses any variable for an agent that declares none", async () => {
    const { ctx, workspace } = await makeWorkspace("editor");
    const agent = await makeAgent(workspace.id, { variables: [] });
    const issues = await issuesOf(createSuite(ctx, { agent_id: agent.id, name: "S", variables: { Temperature: 1 } }));
    expect(issues).toEqual([
      { path: "variables.Temperature", message: 'Unknown variable "Temperature" (the agent declares no variables)' },
    ]);
  });

  it("keeps names unique per agent among live suites only", async () => {
    const { ctx, agent } = await setup();
    const other = await makeAgent(ctx.workspaceId);
    const first = await createSuite(ctx, { agent_id: agent.id, name: "Regression" });
    const conflict = await issuesOf(createSuite(ctx, { agent_id: agent.id, name: "Regression" }), ConflictError);
    expect(paths(conflict)).toEqual(["name"]);
    // Another agent may use the same name.
    await createSuite(ctx, { agent_id: other.id, name: "Regression" });
    // After a soft delete the name is free again...
    await deleteSuite(ctx, first.id);
    const second = await createSuite(ctx, { agent_id: agent.id, name: "Regression" });
    // ...and restoring the old one conflicts with the new live suite.
    const restoreIssues = await issuesOf(restoreSuite(ctx, first.id), ConflictError);
    expect(restoreIssues[0]).toMatchObject({ path: "name" });
    expect(restoreIssues[0]!.message).toContain("Regression");
    expect((await getSuite(ctx, first.id, { includeDeleted: true })).deleted_at).not.toBeNull();
    // Rename the live one, then the restore succeeds.
    await updateSuite(ctx, second.id, { name: "Regression v2" });
    const restored = await restoreSuite(ctx, first.id);
    expect(restored.deleted_at).toBeNull();
    expect((await getSuite(ctx, first.id)).name).toBe("Regression");
  });
});

describe("updateSuite", () => {
  it("merges the patch over the stored suite without resetting omitted fields", async () => {
    const { ctx, agent } = await setup();
    const omitted = {
      description: "keep me",
      schedule_type: "daily",
      schedule_time: "08:30",
      alert_on_regression: false,
      alert_threshold_percent: 25,
      is_enabled: false,
      variables: { Temperature: 0.1 },
    };
    const s = await createSuite(ctx, { agent_id: agent.id, name: "S", ...omitted });
    const updated = await updateSuite(ctx, s.id, { name: "S2" });
    expect(updated).toMatchObject({ name: "S2", ...omitted });
    const cleared = await updateSuite(ctx, s.id, { description: null, schedule_type: "manual", variables: {} });
    expect(cleared).toMatchObject({ description: null, schedule_type: "manual", schedule_time: null, variables: {} });
  });

  it("re-validates the merged suite with issues at the fields", async () => {
    const { ctx, agent } = await setup();
    const s = await createSuite(ctx, { agent_id: agent.id, name: "S" });
    expect(paths(await issuesOf(updateSuite(ctx, s.id, { schedule_type: "weekly" })))).toEqual(["schedule_time", "schedule_day_of_week"]);
    expect(paths(await issuesOf(updateSuite(ctx, s.id, { schedule_type: "weekly", schedule_time: "10:00" })))).toEqual([
      "schedule_day_of_week",
    ]);
    expect(paths(await issuesOf(updateSuite(ctx, s.id, { alert_threshold_percent: -1, name: "" })))).toEqual([
      "name",
      "alert_threshold_percent",
    ]);
    expect(paths(await issuesOf(updateSuite(ctx, s.id, { variables: { Nope: 1 } })))).toEqual(["variables.Nope"]);
    expect(paths(await issuesOf(updateSuite(ctx, s.id, "name=x")))).toEqual([""]);
    expect((await getSuite(ctx, s.id)).schedule_type).toBe("manual");
  });

  it("refuses to move a suite to another agent, but accepts the same agent id", async () => {
    const { ctx, agent } = await setup();
    const other = await makeAgent(ctx.workspaceId);
    const s = await createSuite(ctx, { agent_id: agent.id, name: "S" });
    const issues = await issuesOf(updateSuite(ctx, s.id, { agent_id: other.id }));
    expect(issues).toEqual([{ path: "agent_id", message: "A suite cannot move to another agent" }]);
    expect((await updateSuite(ctx, s.id, { agent_id: agent.id, is_enabled: false })).is_enabled).toBe(false);
  });

  it("translates a rename onto a live name into a conflict at name", async () => {
    const { ctx, agent } = await setup();
    await createSuite(ctx, { agent_id: agent.id, name: "A" });
    const b = await createSuite(ctx, { agent_id: agent.id, name: "B" });
    expect(paths(await issuesOf(updateSuite(ctx, b.id, { name: "A" }), ConflictError))).toEqual(["name"]);
  });

  it("treats deleted suites and other workspaces as not found", async () => {
    const { ctx, agent } = await setup();
    const s = await createSuite(ctx, { agent_id: agent.id, name: "S" });
    const other = await makeWorkspace("owner");
    await expect(updateSuite(other.ctx, s.id, { name: "X" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(getSuite(other.ctx, s.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(deleteSuite(other.ctx, s.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(restoreSuite(other.ctx, s.id)).rejects.toBeInstanceOf(NotFoundError);
    await deleteSuite(ctx, s.id);
    await expect(updateSuite(ctx, s.id, { name: "X" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(getSuite(ctx, s.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(deleteSuite(ctx, s.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getSuite(ctx, "not-a-uuid")).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("roles", () => {
  it("lets viewers read and refuses them every write", async () => {
    const { ctx, agent } = await setup();
    const s = await createSuite(ctx, { agent_id: agent.id, name: "S" });
    const viewer: WorkspaceContext = (await addMember(ctx.workspaceId, "viewer")).ctx;
    expect((await getSuite(viewer, s.id)).agent_name).toBe(agent.name);
    expect((await listSuites(viewer)).data).toHaveLength(1);
    await expect(createSuite(viewer, { agent_id: agent.id, name: "V" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(updateSuite(viewer, s.id, { name: "V" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(deleteSuite(viewer, s.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(restoreSuite(viewer, s.id)).rejects.toBeInstanceOf(ForbiddenError);
    expect((await getSuite(ctx, s.id)).name).toBe("S");
  });
});

describe("listSuites", () => {
  it("returns case counts per status, ignoring deleted cases", async () => {
    const { ctx, agent } = await setup();
    const a = await createSuite(ctx, { agent_id: agent.id, name: "A" });
    const b = await createSuite(ctx, { agent_id: agent.id, name: "B" });
    await makeCases(ctx.workspaceId, a.id, ["draft", "active", "active", "archived"]);
    await makeCases(ctx.workspaceId, a.id, ["active"], true);
    const { data } = await listSuites(ctx);
    expect(data.map((s) => [s.name, s.agent_name, s.case_counts])).toEqual([
      ["A", agent.name, { draft: 1, active: 2, archived: 1 }],
      ["B", agent.name, { draft: 0, active: 0, archived: 0 }],
    ]);
    expect(data[1]!.id).toBe(b.id);
  });

  it("filters by agent, trash and name, and never shows other workspaces", async () => {
    const { ctx, agent } = await setup();
    const other = await makeAgent(ctx.workspaceId);
    await createSuite(ctx, { agent_id: agent.id, name: "Billing smoke" });
    await createSuite(ctx, { agent_id: other.id, name: "Refunds" });
    const gone = await createSuite(ctx, { agent_id: agent.id, name: "Old" });
    await deleteSuite(ctx, gone.id);
    const foreign = await makeWorkspace("owner");
    const foreignAgent = await makeAgent(foreign.workspace.id);
    await createSuite(foreign.ctx, { agent_id: foreignAgent.id, name: "Billing foreign" });

    const names = async (q: Parameters<typeof listSuites>[1]) => (await listSuites(ctx, q)).data.map((s) => s.name);
    expect(await names({})).toEqual(["Billing smoke", "Refunds"]);
    expect(await names({ agent_id: other.id })).toEqual(["Refunds"]);
    expect(await names({ agent_id: foreignAgent.id })).toEqual([]);
    expect(await names({ deleted: true })).toEqual(["Old"]);
    expect(await names({ q: "BILLING" })).toEqual(["Billing smoke"]);
    const trash = await listSuites(ctx, { deleted: true });
    expect(trash.data[0]!.deleted_at).not.toBeNull();
  });

  it("pages with a keyset cursor in name order, without gaps or repeats", async () => {
    const { ctx, agent } = await setup();
    const other = await makeAgent(ctx.workspaceId);
    // Equal names (on two agents) exercise the id tie-breaker.
    for (const name of ["e", "c", "a", "d", "b"]) await createSuite(ctx, { agent_id: agent.id, name });
    for (const name of ["b", "d"]) await createSuite(ctx, { agent_id: other.id, name });
    const { items, pages } = await readAllPages((cursor) => listSuites(ctx, { limit: 3, cursor: cursor ?? undefined }), 3);
    const seen = items.map((s) => s.id);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(7);
    const names = (await db.suite.findMany({ where: { id: { in: seen } }, select: { id: true, name: true } })).reduce<
      Record<string, string>
    >((m, r) => ({ ...m, [r.id]: r.name }), {});
    expect(seen.map((id) => names[id])).toEqual(["a", "b", "b", "c", "d", "d", "e"]);
    expect((await listSuites(ctx, { limit: 7 })).next_cursor).toBeNull();
    await expect(listSuites(ctx, { cursor: "garbage" })).rejects.toBeInstanceOf(ValidationError);
  });
});
