import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { decryptSecret } from "@/lib/crypto";
import * as collection from "@/app/api/v1/model-configs/route";
import * as single from "@/app/api/v1/model-configs/[id]/route";
import { makeApiKey, makeWorkspace } from "../helpers/factories";
import { call, expectHiddenFromOtherWorkspace, readAllPages } from "../helpers/api";

const SECRET = "sk-live-abcdefghijklmnop1234";
const base = { name: "OpenAI", base_url: "https://api.openai.com/v1", model: "gpt-4o-mini" };

let ws: Awaited<ReturnType<typeof makeWorkspace>>;
let other: Awaited<ReturnType<typeof makeWorkspace>>;
const tokens: Record<"admin" | "editor" | "viewer" | "otherAdmin", string> = { admin: "", editor: "", viewer: "", otherAdmin: "" };

beforeAll(async () => {
  ws = await makeWorkspace("owner");
  other = await makeWorkspace("owner");
  for (const role of ["admin", "editor", "viewer"] as const) tokens[role] = await makeApiKey(ws.workspace.id, role);
  tokens.otherAdmin = await makeApiKey(other.workspace.id, "admin");
});

const create = (body: unknown, token = tokens.admin) =>
  call(collection.POST, { method: "POST", url: "/api/v1/model-configs", token, body });

describe("model configurations API", () => {
  it("creates with 201, stores the key encrypted, and never returns it", async () => {
    const res = await create({
      ...base,
      name: "Created",
      api_key: SECRET,
      temperature: 0.3,
      max_tokens: 256,
      embedding_model: " text-embedding-3-small ",
      input_price_per_mtok: 0.15,
    });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      id: expect.any(String),
      name: "Created",
      base_url: "https://api.openai.com/v1",
      model: "gpt-4o-mini",
      embedding_model: "text-embedding-3-small",
      api_key_hint: "••••1234",
      has_api_key: true,
      temperature: 0.3,
      max_tokens: 256,
      input_price_per_mtok: 0.15,
      output_price_per_mtok: null,
      supports_vision: false,
      rpm: null,
      tpm: null,
      max_concurrency: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(res.text).not.toContain(SECRET);
    expect(Object.keys(res.json)).not.toContain("api_key");
    const row = await db.modelConfig.findUniqueOrThrow({ where: { id: res.json.id } });
    expect(row.apiKeyEncrypted).not.toBeNull();
    expect(row.apiKeyEncrypted).not.toContain(SECRET);
    expect(decryptSecret(row.apiKeyEncrypted!)).toBe(SECRET);

    for (const token of [tokens.viewer, tokens.editor, tokens.admin]) {
      const got = await call(single.GET, { url: `/api/v1/model-configs/${res.json.id}`, token, params: { id: res.json.id } });
      expect(got.status).toBe(200);
      expect(got.text).not.toContain(SECRET);
      expect(got.json.api_key_hint).toBe("••••1234");
    }
    const list = await call(collection.GET, { url: "/api/v1/model-configs", token: tokens.viewer });
    expect(list.text).not.toContain(SECRET);
    expect(list.text).not.toContain(row.apiKeyEncrypted!);
  });

  it("rate limits: declared on create, kept by a PATCH that leaves them out, cleared with null, refused by field when not positive whole numbers", async () => {
    const res = await create({ ...base, name: "Limited", rpm: 600, tpm: 60_000, max_concurrency: 8 });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ rpm: 600, tpm: 60_000, max_concurrency: 8 });
    const kept = await call(single.PATCH, {
      method: "PATCH",
      token: tokens.admin,
      params: { id: res.json.id },
      body: { temperature: 0.5 },
    });
    expect(kept.json).toMatchObject({ rpm: 600, tpm: 60_000, max_concurrency: 8 });
    const cleared = await call(single.PATCH, { method: "PATCH", token: tokens.admin, params: { id: res.json.id }, body: { tpm: null } });
    expect(cleared.json).toMatchObject({ rpm: 600, tpm: null, max_concurrency: 8 });
    const row = await db.modelConfig.findUniqueOrThrow({ where: { id: res.json.id } });
    expect(row).toMatchObject({ rpm: 600, tpm: null, maxConcurrency: 8 });

    const bad = await create({ ...base, name: "Bad limits", rpm: 0, tpm: 1.5, max_concurrency: "8" });
    expect(bad.status).toBe(400);
    const paths = (bad.json.error.issues as { path: string }[]).map((i) => i.path).sort();
    expect(paths).toEqual(["max_concurrency", "rpm", "tpm"]);
    expect(await db.modelConfig.count({ where: { name: "Bad limits" } })).toBe(0);
  });

  it("supports_vision: set on create, kept by a PATCH that leaves it out, changed by one that sends it, refused when not a boolean", async () => {
    const res = await create({ ...base, name: "Vision", supports_vision: true });
    expect(res.status).toBe(201);
    expect(res.json.supports_vision).toBe(true);
    const id = res.json.id as string;
    const patch = (body: unknown) =>
      call(single.PATCH, { method: "PATCH", url: `/api/v1/model-configs/${id}`, token: tokens.admin, params: { id }, body });
    expect((await patch({ temperature: 0.5 })).json.supports_vision).toBe(true);
    expect((await patch({ supports_vision: false })).json.supports_vision).toBe(false);
    const bad = await patch({ supports_vision: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues).toEqual([{ path: "supports_vision", message: "supports_vision must be true or false" }]);
  });

  it.each([
    [{ ...base, name: "" }, "name", "Name is required"],
    [{ ...base, name: "x".repeat(101) }, "name", "Use at most 100 characters"],
    [{ ...base, base_url: "ftp://example.com" }, "base_url", "Enter an http(s) URL"],
    [{ ...base, base_url: "not a url" }, "base_url", "Enter an http(s) URL"],
    [{ ...base, model: " " }, "model", "Model is required"],
    [{ ...base, temperature: 2.5 }, "temperature", "Temperature must be between 0 and 2"],
    [{ ...base, temperature: -0.1 }, "temperature", "Temperature must be between 0 and 2"],
    [{ ...base, temperature: "hot" }, "temperature", "Temperature must be a number"],
    [{ ...base, max_tokens: 1.5 }, "max_tokens", "Max tokens must be a whole number"],
    [{ ...base, max_tokens: 0 }, "max_tokens", "Max tokens must be at least 1"],
    [{ ...base, api_key: 42 }, "api_key", undefined],
    [{ ...base, base_url: "http://169.254.169.254/v1" }, "base_url", "cloud metadata address"],
    [{ ...base, base_url: "http://metadata.google.internal/v1" }, "base_url", "cloud metadata service"],
  ])("rejects invalid input %# at its field", async (body, path, message) => {
    const res = await create({ ...body, name: body.name === base.name ? `v-${Math.random()}` : body.name });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_input");
    const issue = res.json.error.issues.find((i: { path: string }) => i.path === path);
    expect(issue, JSON.stringify(res.json)).toBeTruthy();
    if (message) expect(issue.message).toContain(message);
  });

  it("rejects a missing or non-JSON body", async () => {
    expect((await call(collection.POST, { method: "POST", token: tokens.admin })).status).toBe(400);
    const raw = await call(collection.POST, { method: "POST", token: tokens.admin, rawBody: "{nope", contentType: "application/json" });
    expect(raw.status).toBe(400);
    expect(raw.json.error.message).toBe("Body is not valid JSON");
  });

  it("refuses a duplicate name in the same workspace with 409 at `name`, but allows it in another", async () => {
    expect((await create({ ...base, name: "Dup" })).status).toBe(201);
    const dup = await create({ ...base, name: "Dup" });
    expect(dup.status).toBe(409);
    expect(dup.json.error.issues).toEqual([{ path: "name", message: expect.stringContaining("already exists") }]);
    expect((await create({ ...base, name: "Dup" }, tokens.otherAdmin)).status).toBe(201);
  });

  it('updates partially and applies the api_key rules (omit keeps, string replaces, null/"" removes)', async () => {
    const { json: created } = await create({ ...base, name: "Patchable", api_key: SECRET, temperature: 0.5 });
    const patch = (body: unknown) => call(single.PATCH, { method: "PATCH", token: tokens.admin, params: { id: created.id }, body });
    const stored = async () => db.modelConfig.findUniqueOrThrow({ where: { id: created.id } });

    const renamed = await patch({ name: "Patched", temperature: null });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({
      name: "Patched",
      model: "gpt-4o-mini",
      temperature: null,
      has_api_key: true,
      api_key_hint: "••••1234",
    });
    expect(decryptSecret((await stored()).apiKeyEncrypted!)).toBe(SECRET);

    const replaced = await patch({ api_key: "sk-other-key-0000009876" });
    expect(replaced.json.api_key_hint).toBe("••••9876");
    expect(decryptSecret((await stored()).apiKeyEncrypted!)).toBe("sk-other-key-0000009876");

    const removed = await patch({ api_key: null });
    expect(removed.json).toMatchObject({ has_api_key: false, api_key_hint: null });
    expect((await stored()).apiKeyEncrypted).toBeNull();

    await patch({ api_key: "sk-again-000000005555" });
    const blank = await patch({ api_key: "" });
    expect(blank.json.has_api_key).toBe(false);

    const bad = await patch({ base_url: "mailto:x@y.z", max_tokens: -1 });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues.map((i: { path: string }) => i.path).sort()).toEqual(["base_url", "max_tokens"]);

    await create({ ...base, name: "Taken" });
    const conflict = await patch({ name: "Taken" });
    expect(conflict.status).toBe(409);
    expect(conflict.json.error.issues[0].path).toBe("name");
  });

  it("paginates by name with an opaque cursor", async () => {
    const { workspace } = await makeWorkspace("owner");
    const token = await makeApiKey(workspace.id, "viewer");
    const admin = await makeApiKey(workspace.id, "admin");
    const names = ["delta", "alpha", "echo", "charlie", "bravo"];
    for (const name of names) await create({ ...base, name }, admin);
    const { items, pages } = await readAllPages<{ name: string }>(async (cursor) => {
      const url = `/api/v1/model-configs?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const res = await call(collection.GET, { url, token });
      expect(res.status).toBe(200);
      return res.json;
    }, 2);
    expect(items.map((c) => c.name)).toEqual([...names].sort());
    expect(pages).toBe(3);
    expect((await call(collection.GET, { url: "/api/v1/model-configs?limit=0", token })).status).toBe(400);
    expect((await call(collection.GET, { url: "/api/v1/model-configs?limit=201", token })).status).toBe(400);
    const badCursor = await call(collection.GET, { url: "/api/v1/model-configs?cursor=garbage", token });
    expect(badCursor.status).toBe(400);
    expect(badCursor.json.error.issues[0].path).toBe("cursor");
  });

  it("enforces 401 / 403 / 404 for every route", async () => {
    const { json: config } = await create({ ...base, name: "Guarded" });
    const { json: foreign } = await create({ ...base, name: "Foreign" }, tokens.otherAdmin);
    const id = { id: config.id };
    const routes = [
      { handler: collection.GET, method: "GET", params: {}, role: "viewer" },
      { handler: collection.POST, method: "POST", params: {}, role: "admin", body: { ...base, name: "R" } },
      { handler: single.GET, method: "GET", params: id, role: "viewer" },
      { handler: single.PATCH, method: "PATCH", params: id, role: "admin", body: {} },
      { handler: single.DELETE, method: "DELETE", params: id, role: "admin" },
    ] as const;
    for (const r of routes) {
      const body = "body" in r ? r.body : undefined;
      const missing = await call(r.handler, { method: r.method, params: r.params, body });
      expect(missing.status, `${r.method} without key`).toBe(401);
      expect(missing.json.error.code).toBe("unauthorized");
      const bad = await call(r.handler, { method: r.method, params: r.params, body, token: "x".repeat(40) });
      expect(bad.status, `${r.method} bad key`).toBe(401);
      if (r.role === "admin") {
        for (const token of [tokens.viewer, tokens.editor]) {
          const res = await call(r.handler, { method: r.method, params: r.params, body, token });
          expect(res.status, `${r.method} as non-admin`).toBe(403);
        }
      }
    }
    await expectHiddenFromOtherWorkspace(single, { token: tokens.admin, foreignId: foreign.id, patch: { name: "x" }, badId: "not-a-uuid" });
    expect((await db.modelConfig.findUniqueOrThrow({ where: { id: foreign.id } })).name).toBe("Foreign");
    const list = await call(collection.GET, { token: tokens.admin });
    expect(list.json.data.map((c: { id: string }) => c.id)).not.toContain(foreign.id);
  });

  it("deletes with 204; refuses with 409 while agents or live suites use it unless force=true", async () => {
    const { json: unused } = await create({ ...base, name: "Unused" });
    const del = await call(single.DELETE, { method: "DELETE", token: tokens.admin, params: { id: unused.id } });
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expect((await call(single.GET, { token: tokens.admin, params: { id: unused.id } })).status).toBe(404);

    const { json: used } = await create({ ...base, name: "Used" });
    const agent = await db.agent.create({
      data: { workspaceId: ws.workspace.id, name: "Uses config", kind: "chat", modelConfigId: used.id },
    });
    await db.suite.create({
      data: { workspaceId: ws.workspace.id, agentId: agent.id, name: "Judge suite", llmJudgeModelConfigId: used.id },
    });
    const refused = await call(single.DELETE, { method: "DELETE", token: tokens.admin, params: { id: used.id } });
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toContain("1 agent and 1 suite");
    expect(
      (await call(single.DELETE, { method: "DELETE", token: tokens.admin, params: { id: used.id }, url: "/x?force=maybe" })).status,
    ).toBe(400);
    const forced = await call(single.DELETE, { method: "DELETE", token: tokens.admin, params: { id: used.id }, url: "/x?force=true" });
    expect(forced.status).toBe(204);
    expect((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).modelConfigId).toBeNull();
  });
});
