import { describe, expect, it } from "vitest";
import { GET as listRoute, POST as createRoute } from "@/app/api/v1/suites/route";
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from "@/app/api/v1/suites/[id]/route";
import { POST as restoreRoute } from "@/app/api/v1/suites/[id]/restore/route";
import { makeApiKey, makeWorkspace, makeAgent, makeCases } from "../helpers/factories";
import { call } from "../helpers/api";

async function setup() {
  const { workspace } = await makeWorkspace("owner");
  const agent = await makeAgent(workspace.id);
  const editor = await makeApiKey(workspace.id, "editor");
  const viewer = await makeApiKey(workspace.id, "viewer");
  const other = await makeWorkspace("owner");
  const outsider = await makeApiKey(other.workspace.id, "admin");
  return { workspace, agent, editor, viewer, outsider };
}

async function createVia(token: string, body: unknown) {
  return call(createRoute, { url: "/api/v1/suites", method: "POST", token, body });
}

describe("POST /api/v1/suites", () => {
  it("creates a suite (201) and reports invalid fields in the error envelope", async () => {
    const { agent, editor } = await setup();
    const created = await createVia(editor, {
      agent_id: agent.id,
      name: "Smoke",
      schedule_type: "daily",
      schedule_time: "07:15",
      variables: { Temperature: 0.3 },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      id: expect.any(String),
      agent_id: agent.id,
      name: "Smoke",
      schedule_time: "07:15",
      variables: { Temperature: 0.3 },
    });
    expect(created.json.created_at).toBeTruthy();
    expect(created.json.updated_at).toBeTruthy();

    const bad = await createVia(editor, { agent_id: agent.id, name: "", schedule_type: "daily", alert_threshold_percent: 0 });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("invalid_input");
    expect(bad.json.error.issues.map((i: { path: string }) => i.path)).toEqual(["name", "alert_threshold_percent", "schedule_time"]);

    const dup = await createVia(editor, { agent_id: agent.id, name: "Smoke" });
    expect(dup.status).toBe(409);
    expect(dup.json.error).toMatchObject({ code: "conflict", issues: [{ path: "name" }] });

    const notJson = await call(createRoute, {
      url: "/api/v1/suites",
      method: "POST",
      token: editor,
      rawBody: "{",
      contentType: "application/json",
    });
    expect(notJson.status).toBe(400);
  });

  it("answers 401 without or with a bad key, 403 for viewers, 400 for another workspace's agent", async () => {
    const { agent, viewer, outsider } = await setup();
    expect((await call(createRoute, { url: "/api/v1/suites", method: "POST", body: { agent_id: agent.id, name: "X" } })).status).toBe(401);
    expect((await createVia("x".repeat(40), { agent_id: agent.id, name: "X" })).status).toBe(401);
    expect((await createVia(viewer, { agent_id: agent.id, name: "X" })).status).toBe(403);
    const foreign = await createVia(outsider, { agent_id: agent.id, name: "X" });
    expect(foreign.status).toBe(400);
    expect(foreign.json.error.issues).toEqual([{ path: "agent_id", message: "Choose an agent of this workspace" }]);
  });
});

describe("GET /api/v1/suites", () => {
  it("lists live suites with counts, filters, trash and cursor pagination", async () => {
    const { agent, editor, viewer, outsider, workspace } = await setup();
    const other = await makeAgent(workspace.id);
    const a = (await createVia(editor, { agent_id: agent.id, name: "A" })).json;
    await createVia(editor, { agent_id: other.id, name: "B" });
    const c = (await createVia(editor, { agent_id: agent.id, name: "C" })).json;
    await makeCases(workspace.id, a.id, ["active", "draft"]);
    await call(deleteRoute, { method: "DELETE", token: editor, params: { id: c.id } });

    const all = await call(listRoute, { url: "/api/v1/suites", token: viewer });
    expect(all.status).toBe(200);
    expect(all.json.next_cursor).toBeNull();
    expect(all.json.data.map((s: { name: string }) => s.name)).toEqual(["A", "B"]);
    expect(all.json.data[0]).toMatchObject({ agent_name: agent.name, case_counts: { draft: 1, active: 1, archived: 0 } });

    const byAgent = await call(listRoute, { url: `/api/v1/suites?agent_id=${other.id}`, token: viewer });
    expect(byAgent.json.data.map((s: { name: string }) => s.name)).toEqual(["B"]);
    const trash = await call(listRoute, { url: "/api/v1/suites?deleted=true", token: viewer });
    expect(trash.json.data.map((s: { name: string }) => s.name)).toEqual(["C"]);

    const first = await call(listRoute, { url: "/api/v1/suites?limit=1", token: viewer });
    expect(first.json.data).toHaveLength(1);
    const second = await call(listRoute, { url: `/api/v1/suites?limit=1&cursor=${first.json.next_cursor}`, token: viewer });
    expect(second.json.data.map((s: { name: string }) => s.name)).toEqual(["B"]);
    expect(second.json.next_cursor).toBeNull();

    const invalid = await call(listRoute, { url: "/api/v1/suites?agent_id=nope&limit=0&deleted=maybe", token: viewer });
    expect(invalid.status).toBe(400);
    expect(invalid.json.error.issues.map((i: { path: string }) => i.path).sort()).toEqual(["agent_id", "deleted", "limit"]);
    expect((await call(listRoute, { url: "/api/v1/suites?cursor=zzz", token: viewer })).status).toBe(400);

    expect((await call(listRoute, { url: "/api/v1/suites" })).status).toBe(401);
    const foreign = await call(listRoute, { url: "/api/v1/suites", token: outsider });
    expect(foreign.json.data).toEqual([]);
  });
});

describe("/api/v1/suites/{id}", () => {
  it("reads, patches and soft-deletes a suite; 404 afterwards", async () => {
    const { agent, editor, viewer } = await setup();
    const s = (await createVia(editor, { agent_id: agent.id, name: "S", alert_threshold_percent: 30 })).json;
    const got = await call(getRoute, { token: viewer, params: { id: s.id } });
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ id: s.id, agent_name: agent.name, alert_threshold_percent: 30 });

    const patched = await call(patchRoute, { method: "PATCH", token: editor, params: { id: s.id }, body: { is_enabled: false } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ is_enabled: false, alert_threshold_percent: 30, name: "S" });

    const bad = await call(patchRoute, {
      method: "PATCH",
      token: editor,
      params: { id: s.id },
      body: { schedule_type: "weekly", schedule_time: "10:00" },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues).toEqual([{ path: "schedule_day_of_week", message: "A weekly schedule needs a day of week" }]);

    expect((await call(patchRoute, { method: "PATCH", token: viewer, params: { id: s.id }, body: { name: "V" } })).status).toBe(403);
    expect((await call(deleteRoute, { method: "DELETE", token: viewer, params: { id: s.id } })).status).toBe(403);

    const del = await call(deleteRoute, { method: "DELETE", token: editor, params: { id: s.id } });
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await call(getRoute, { token: viewer, params: { id: s.id } })).status).toBe(404);
    expect((await call(patchRoute, { method: "PATCH", token: editor, params: { id: s.id }, body: { name: "X" } })).status).toBe(404);
    expect((await call(deleteRoute, { method: "DELETE", token: editor, params: { id: s.id } })).status).toBe(404);
  });

  it("hides suites of other workspaces (404) and answers 401 without a key", async () => {
    const { agent, editor, outsider } = await setup();
    const s = (await createVia(editor, { agent_id: agent.id, name: "S" })).json;
    expect((await call(getRoute, { token: outsider, params: { id: s.id } })).status).toBe(404);
    expect((await call(patchRoute, { method: "PATCH", token: outsider, params: { id: s.id }, body: { name: "X" } })).status).toBe(404);
    expect((await call(deleteRoute, { method: "DELETE", token: outsider, params: { id: s.id } })).status).toBe(404);
    expect((await call(getRoute, { token: editor, params: { id: "not-a-uuid" } })).status).toBe(404);
    expect((await call(getRoute, { params: { id: s.id } })).status).toBe(401);
    expect((await call(patchRoute, { method: "PATCH", params: { id: s.id }, body: {} })).status).toBe(401);
    expect((await call(deleteRoute, { method: "DELETE", params: { id: s.id } })).status).toBe(401);
    // Still there for its own workspace.
    expect((await call(getRoute, { token: editor, params: { id: s.id } })).json.name).toBe("S");
  });
});

describe("POST /api/v1/suites/{id}/restore", () => {
  it("restores from the trash, 409 on a name taken meanwhile, 403/404/401 otherwise", async () => {
    const { agent, editor, viewer, outsider } = await setup();
    const s = (await createVia(editor, { agent_id: agent.id, name: "Nightly" })).json;
    await call(deleteRoute, { method: "DELETE", token: editor, params: { id: s.id } });
    expect((await call(restoreRoute, { method: "POST", params: { id: s.id } })).status).toBe(401);
    expect((await call(restoreRoute, { method: "POST", token: viewer, params: { id: s.id } })).status).toBe(403);
    expect((await call(restoreRoute, { method: "POST", token: outsider, params: { id: s.id } })).status).toBe(404);

    const replacement = (await createVia(editor, { agent_id: agent.id, name: "Nightly" })).json;
    const conflict = await call(restoreRoute, { method: "POST", token: editor, params: { id: s.id } });
    expect(conflict.status).toBe(409);
    expect(conflict.json.error.issues[0].path).toBe("name");

    await call(deleteRoute, { method: "DELETE", token: editor, params: { id: replacement.id } });
    const restored = await call(restoreRoute, { method: "POST", token: editor, params: { id: s.id } });
    expect(restored.status).toBe(200);
    expect(restored.json).toMatchObject({ id: s.id, deleted_at: null });
    expect((await call(getRoute, { token: viewer, params: { id: s.id } })).status).toBe(200);
  });
});
