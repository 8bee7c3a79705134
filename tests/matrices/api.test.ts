import { describe, expect, it } from "vitest";
import * as createRoute from "@/app/api/v1/suites/[id]/matrix/route";
import * as listRoute from "@/app/api/v1/suites/[id]/matrices/route";
import * as matrixRoute from "@/app/api/v1/matrices/[id]/route";
import * as cancelRoute from "@/app/api/v1/matrices/[id]/cancel/route";
import { withRunStack } from "../helpers/run-stack";
import { call } from "../helpers/api";
import { makeApiKey, makeKeyedSuite, makeWorkspace, waitFor, variable, setAgentVariables } from "../helpers/factories";

/** The matrix API through its real route handlers (auth, role, parsing, envelope), executed by a real Executor. */

const { fake } = withRunStack();

const api = {
  create: (token: string, suiteId: string, body: unknown) =>
    call(createRoute.POST, { method: "POST", token, body, params: { id: suiteId }, url: `/api/v1/suites/${suiteId}/matrix` }),
  list: (token: string, suiteId: string, query = "") =>
    call(listRoute.GET, { token, params: { id: suiteId }, url: `/api/v1/suites/${suiteId}/matrices${query}` }),
  get: (token: string, id: string) => call(matrixRoute.GET, { token, params: { id }, url: `/api/v1/matrices/${id}` }),
  cancel: (token: string, id: string) =>
    call(cancelRoute.POST, { method: "POST", token, params: { id }, url: `/api/v1/matrices/${id}/cancel` }),
};

async function setup() {
  const made = await makeKeyedSuite(2, fake.url);
  await setAgentVariables(made.agent.id, [variable("Temperature", "number")]);
  return made;
}

describe("matrix API", () => {
  it("POST → 202 with the pending matrix; GET follows it to completed; list newest first with a cursor; cancel after the end is 409", async () => {
    const { suite, editor, viewer } = await setup();
    const first = await api.create(editor, suite.id, { variables: { Temperature: [0, 0.5] } });
    expect(first.status).toBe(202);
    expect(first.json).toMatchObject({ total_combinations: 2, axes: { Temperature: [0, 0.5] } });
    // The executor may have claimed a run already by the time the answer is built.
    expect(["pending", "running"]).toContain(first.json.status);
    expect(first.json.combinations.map((c: { label: string }) => c.label)).toEqual(["Temperature=0", "Temperature=0.5"]);
    const done = await waitFor(
      () => api.get(viewer, first.json.id),
      (r) => r.json?.status === "completed",
    );
    expect(done.json.combinations.map((c: { pass_rate: number; status: string }) => [c.status, c.pass_rate])).toEqual([
      ["completed", 100],
      ["completed", 100],
    ]);
    expect(done.json.best_combination).toMatchObject({ index: expect.any(Number), pass_rate: 100 });

    const second = await api.create(editor, suite.id, { name: "Second", variables: { Temperature: [1] } });
    expect(second.status).toBe(202);
    const page1 = await api.list(viewer, suite.id, "?limit=1");
    expect(page1.status).toBe(200);
    expect(page1.json.data.map((m: { id: string }) => m.id)).toEqual([second.json.id]);
    const page2 = await api.list(viewer, suite.id, `?limit=1&cursor=${encodeURIComponent(page1.json.next_cursor)}`);
    expect(page2.json).toMatchObject({ data: [{ id: first.json.id }], next_cursor: null });

    const late = await api.cancel(editor, first.json.id);
    expect(late.status).toBe(409);
    await waitFor(
      () => api.get(viewer, second.json.id),
      (r) => r.json?.status === "completed",
    );
  });

  it("400 names the variable and the combination; over 32 combinations names `variables`", async () => {
    const { suite, editor } = await setup();
    const bad = await api.create(editor, suite.id, { variables: { Temperature: [0, "warm"] } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("invalid_input");
    expect(bad.json.error.issues).toEqual([
      { path: "variables.Temperature", message: expect.stringMatching(/combination 2 \(Temperature="warm"\)$/) },
    ]);
    const big = await api.create(editor, suite.id, { variables: { Temperature: Array.from({ length: 33 }, (_, i) => i / 100) } });
    expect(big.status).toBe(400);
    expect(big.json.error.issues.map((i: { path: string }) => i.path)).toContain("variables");
  });

  it("404 across workspaces, 403 for a viewer's writes, 401 without a key", async () => {
    const { suite, editor, viewer } = await setup();
    const created = await api.create(editor, suite.id, { variables: { Temperature: [0] } });
    const other = await makeWorkspace("owner");
    const stranger = await makeApiKey(other.workspace.id, "admin");
    expect((await api.get(stranger, created.json.id)).status).toBe(404);
    expect((await api.list(stranger, suite.id)).status).toBe(404);
    expect((await api.create(stranger, suite.id, { variables: { Temperature: [0] } })).status).toBe(404);
    expect((await api.cancel(stranger, created.json.id)).status).toBe(404);
    expect((await api.create(viewer, suite.id, { variables: { Temperature: [0] } })).status).toBe(403);
    expect((await api.cancel(viewer, created.json.id)).status).toBe(403);
    expect((await api.get(viewer, "not-a-uuid")).status).toBe(404);
    expect((await call(matrixRoute.GET, { params: { id: created.json.id } })).status).toBe(401);
    await waitFor(
      () => api.get(viewer, created.json.id),
      (r) => r.json?.status === "completed",
    );
  });
});
