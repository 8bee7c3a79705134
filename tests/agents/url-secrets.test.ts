import { describe, expect, it } from "vitest";
import * as collection from "@/app/api/v1/agents/route";
import * as single from "@/app/api/v1/agents/[id]/route";
import { resolveAgentForRun } from "@/lib/agents/service";
import { workspaceWithKeys } from "../helpers/factories";
import { call } from "../helpers/api";

const { ws, tokens } = workspaceWithKeys();

const headers = { Authorization: "Bearer agent-secret-123456", "X-Tenant": "tenant-secret-7890" };
async function create(name: string, url: string, token = tokens.admin) {
  const res = await call(collection.POST, {
    method: "POST",
    url: "/api/v1/agents",
    token,
    body: { name, kind: "http", http: { url, headers } },
  });
  expect(res.status).toBe(201);
  return res.json as { id: string; http: { url: string; headers: Record<string, string> } };
}
const patch = (id: string, body: unknown, token = tokens.admin) =>
  call(single.PATCH, { method: "PATCH", url: `/api/v1/agents/${id}`, token, body, params: { id } });

describe("HTTP agent secrets follow their host", () => {
  it("a new origin without headers in the request clears the stored headers and says so", async () => {
    const agent = await create("moves", "https://agent.one.example/chat");
    const res = await patch(agent.id, { http: { url: "https://agent.two.example/chat" } });
    expect(res.status).toBe(200);
    expect(res.json.http).toMatchObject({ url: "https://agent.two.example/chat", headers: {} });
    expect(res.json.warnings).toEqual(["http.headers Authorization, X-Tenant cleared because http.url changed origin"]);
    expect((await resolveAgentForRun(ws.workspace.id, agent.id)).http?.headers).toEqual({});
  });

  it("masked values sent back with a new origin are dropped; new values in the same request are kept", async () => {
    const agent = await create("form-like", "https://agent.three.example/chat");
    // What a form sends: every header as read (masked), one of them typed again.
    const res = await patch(agent.id, {
      http: { url: "https://agent.four.example/chat", headers: { ...agent.http.headers, "X-Tenant": "new-tenant-secret" } },
    });
    expect(Object.keys(res.json.http.headers)).toEqual(["X-Tenant"]);
    expect(res.json.warnings).toEqual(["http.headers Authorization cleared because http.url changed origin"]);
    expect((await resolveAgentForRun(ws.workspace.id, agent.id)).http?.headers).toEqual({ "X-Tenant": "new-tenant-secret" });
  });

  it("same origin keeps the headers (masked values round-trip)", async () => {
    const agent = await create("stays", "https://agent.five.example/chat");
    const res = await patch(agent.id, { http: { url: "https://agent.five.example/v2/chat", headers: agent.http.headers } });
    expect(res.json.warnings).toBeUndefined();
    expect((await resolveAgentForRun(ws.workspace.id, agent.id)).http?.headers).toEqual(headers);
  });

  it("masks URL query values and userinfo below admin; an editor's masked URL keeps the stored one", async () => {
    const url = "https://bot:pw@fn.azurewebsites.net/api/agent?code=SECRETCODE";
    const agent = await create("azure", url);
    for (const role of ["viewer", "editor"] as const) {
      const one = await call(single.GET, { url: `/api/v1/agents/${agent.id}`, token: tokens[role], params: { id: agent.id } });
      expect(one.json.http.url).toBe("https://••••@fn.azurewebsites.net/api/agent?code=••••");
      const list = await call(collection.GET, { url: "/api/v1/agents", token: tokens[role] });
      expect(list.text).not.toContain("SECRETCODE");
    }
    const read = await call(single.GET, { url: `/api/v1/agents/${agent.id}`, token: tokens.editor, params: { id: agent.id } });
    const res = await patch(agent.id, { description: "edited", http: read.json.http }, tokens.editor);
    expect(res.status).toBe(200);
    expect(res.json.warnings).toBeUndefined();
    const stored = await resolveAgentForRun(ws.workspace.id, agent.id);
    expect(stored.http).toMatchObject({ url, headers });
  });
});
