import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import * as suitePresets from "@/app/api/v1/suites/[id]/presets/route";
import * as onePreset from "@/app/api/v1/presets/[id]/route";
import * as suiteRuns from "@/app/api/v1/suites/[id]/runs/route";
import { aiConfigurationVariable, makeApiKey, makeWorkspace, makeSuiteWithCases, variable, setAgentVariables } from "../helpers/factories";
import { call } from "../helpers/api";

async function setup() {
  const { ctx } = await makeWorkspace("owner");
  const made = await makeSuiteWithCases(ctx, 2);
  await setAgentVariables(made.agent.id, [
    aiConfigurationVariable(made.modelConfig.name, "other"),
    variable("Temperature", "number", { default_value: 0.7 }),
    variable("Verbose", "boolean"),
  ]);
  const editor = await makeApiKey(ctx.workspaceId, "editor");
  const viewer = await makeApiKey(ctx.workspaceId, "viewer");
  return { ctx, ...made, editor, viewer };
}

const create = (token: string, suiteId: string, body: unknown) =>
  call(suitePresets.POST, { method: "POST", token, params: { id: suiteId }, body });

describe("suite presets API (the variables model's presets)", () => {
  it("editors create, rename, change and delete presets; viewers list and read", async () => {
    const { suite, editor, viewer } = await setup();
    const made = await create(editor, suite.id, { name: "cold", values: { Temperature: 0, Verbose: true } });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ suite_id: suite.id, name: "cold", values: { Temperature: 0, Verbose: true } });
    await create(editor, suite.id, { name: "alpha" });

    const list = await call(suitePresets.GET, { token: viewer, params: { id: suite.id } });
    expect(list.status).toBe(200);
    expect(list.json.data.map((p: { name: string }) => p.name)).toEqual(["alpha", "cold"]);

    const id = made.json.id as string;
    expect((await call(onePreset.GET, { token: viewer, params: { id } })).json.name).toBe("cold");
    const patched = await call(onePreset.PATCH, {
      method: "PATCH",
      token: editor,
      params: { id },
      body: { name: "freezing", values: { Temperature: 0.1 } },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ name: "freezing", values: { Temperature: 0.1 } });

    expect((await create(viewer, suite.id, { name: "nope" })).status).toBe(403);
    expect((await call(onePreset.PATCH, { method: "PATCH", token: viewer, params: { id }, body: { name: "x" } })).status).toBe(403);
    expect((await call(onePreset.DELETE, { method: "DELETE", token: viewer, params: { id } })).status).toBe(403);

    expect((await call(onePreset.DELETE, { method: "DELETE", token: editor, params: { id } })).status).toBe(204);
    expect((await call(onePreset.GET, { token: viewer, params: { id } })).status).toBe(404);
  });

  it("validates values like run variables and names per suite", async () => {
    const { suite, editor } = await setup();
    const bad = await create(editor, suite.id, { name: "bad", values: { Temperature: "hot", AIConfiguration: "claude", Model: "x" } });
    expect(bad.status).toBe(400);
    const issues = bad.json.error.issues as { path: string; message: string }[];
    expect(issues.map((i) => i.path).sort()).toEqual(["values.AIConfiguration", "values.Model", "values.Temperature"]);
    expect(issues.find((i) => i.path === "values.Model")!.message).toBe('Unknown variable "Model"');
    expect(issues.find((i) => i.path === "values.Temperature")!.message).toBe("Value must be a number");

    expect((await create(editor, suite.id, { name: "" })).json.error.issues[0].path).toBe("name");
    expect((await create(editor, suite.id, { name: "dup" })).status).toBe(201);
    const dup = await create(editor, suite.id, { name: "dup" });
    expect(dup.status).toBe(409);
    expect(dup.json.error.issues).toEqual([{ path: "name", message: "A preset with this name already exists in this suite" }]);
  });

  it("keeps workspaces apart", async () => {
    const a = await setup();
    const b = await setup();
    const made = await create(a.editor, a.suite.id, { name: "mine" });
    expect((await call(suitePresets.GET, { token: b.viewer, params: { id: a.suite.id } })).status).toBe(404);
    expect((await create(b.editor, a.suite.id, { name: "theirs" })).status).toBe(404);
    expect((await call(onePreset.GET, { token: b.viewer, params: { id: made.json.id } })).status).toBe(404);
    expect(
      (await call(onePreset.PATCH, { method: "PATCH", token: b.editor, params: { id: made.json.id }, body: { name: "x" } })).status,
    ).toBe(404);
    expect((await call(onePreset.DELETE, { method: "DELETE", token: b.editor, params: { id: made.json.id } })).status).toBe(404);
    expect(await db.suitePreset.count({ where: { id: made.json.id, name: "mine" } })).toBe(1);
  });

  it("starts a run with a preset by name or id; explicit variables override its values; an unknown preset is a 400", async () => {
    const { suite, editor } = await setup();
    const preset = await create(editor, suite.id, { name: "cold", values: { Temperature: 0, Verbose: true } });
    const start = (body: unknown) => call(suiteRuns.POST, { method: "POST", token: editor, params: { id: suite.id }, body });

    const byName = await start({ preset: "cold", variables: { Verbose: false } });
    expect(byName.status).toBe(202);
    expect(byName.json.resolved_variables.values).toMatchObject({ Temperature: 0, Verbose: false });
    expect(byName.json.resolved_variables.sources).toMatchObject({ Temperature: "run", Verbose: "run", AIConfiguration: "type" });
    const results = await db.caseResult.findMany({ where: { runId: byName.json.id }, select: { resolvedVariables: true } });
    expect(results).toHaveLength(2);
    for (const r of results)
      expect((r.resolvedVariables as { values: Record<string, unknown> }).values).toMatchObject({ Temperature: 0, Verbose: false });

    const byId = await start({ preset: preset.json.id });
    expect(byId.status).toBe(202);
    expect(byId.json.resolved_variables.values).toMatchObject({ Temperature: 0, Verbose: true });

    const unknown = await start({ preset: "warm" });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.issues).toEqual([{ path: "preset", message: 'Unknown preset "warm": this suite has "cold"' }]);
  });
});
