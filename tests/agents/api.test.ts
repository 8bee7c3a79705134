import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { decryptSecret } from "@/lib/crypto";
import * as collection from "@/app/api/v1/agents/route";
import * as single from "@/app/api/v1/agents/[id]/route";
import { makeApiKey, makeWorkspace, variable } from "../helpers/factories";
import { call, expectHiddenFromOtherWorkspace, readAllPages } from "../helpers/api";

let ws: Awaited<ReturnType<typeof makeWorkspace>>;
let other: Awaited<ReturnType<typeof makeWorkspace>>;
let configId: string;
let foreignConfigId: string;
const tokens = { admin: "", editor: "", viewer: "", otherEditor: "" };
let n = 0;

beforeAll(async () => {
  ws = await makeWorkspace("owner");
  other = await makeWorkspace("owner");
  for (const role of ["admin", "editor", "viewer"] as const) tokens[role] = await makeApiKey(ws.workspace.id, role);
  tokens.otherEditor = await makeApiKey(other.workspace.id, "editor");
  configId = (
    await db.modelConfig.create({ data: { workspaceId: ws.workspace.id, name: "cfg", baseUrl: "http://127.0.0.1:1/v1", model: "m" } })
  ).id;
  foreignConfigId = (
    await db.modelConfig.create({ data: { workspaceId: other.workspace.id, name: "cfg", baseUrl: "http://127.0.0.1:1/v1", model: "m" } })
  ).id;
});

const chat = () => ({
  name: `Support bot ${n++}`,
  kind: "chat",
  system_prompt: "You are helpful.",
  model_config_id: configId,
  tools: [
    {
      name: "get_weather",
      description: "Weather by city",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      mock_response: { temp: 21 },
    },
  ],
});
const httpAgent = () => ({
  name: `HTTP bot ${n++}`,
  kind: "http",
  http: {
    url: "http://localhost:8080/chat",
    headers: { Authorization: "Bearer super-secret-token-9876", "X-Team": "qa" },
    timeout_ms: 5000,
  },
});
const create = (body: unknown, token = tokens.editor) => call(collection.POST, { method: "POST", token, body });

describe("agents API", () => {
  it("creates a chat agent (201) with every public field", async () => {
    const body = {
      ...chat(),
      description: "  Answers questions  ",
      variables_schema: [
        {
          name: "locale",
          display_name: "Locale",
          data_type: "string",
          value_source: "static",
          possible_values: [{ value: "en" }, { value: "de", label: "German" }],
          default_value: "en",
        },
      ],
    };
    const res = await create(body);
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      id: expect.any(String),
      name: body.name,
      description: "Answers questions",
      kind: "chat",
      system_prompt: "You are helpful.",
      model_config_id: configId,
      tools: body.tools,
      http: null,
      variables_schema: [
        {
          name: "locale",
          display_name: "Locale",
          description: null,
          data_type: "string",
          value_source: "static",
          possible_values: [
            { value: "en", label: null, description: null },
            { value: "de", label: "German", description: null },
          ],
          default_value: "en",
          required: false,
        },
      ],
      otel_service_name: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const got = await call(single.GET, { token: tokens.viewer, params: { id: res.json.id } });
    expect(got.json).toEqual(res.json);
  });

  it("stores HTTP headers encrypted and returns them masked", async () => {
    const res = await create(httpAgent());
    expect(res.status).toBe(201);
    expect(res.json.http).toEqual({
      url: "http://localhost:8080/chat",
      headers: { Authorization: "••••9876", "X-Team": "••••" },
      timeout_ms: 5000,
      rpm: null,
      tpm: null,
      max_concurrency: null,
    });
    expect(res.text).not.toContain("super-secret-token");
    const row = await db.agent.findUniqueOrThrow({ where: { id: res.json.id } });
    expect(row.httpHeaderNames).toEqual(["Authorization", "X-Team"]);
    expect(row.httpHeadersEncrypted).not.toContain("super-secret");
    expect(JSON.parse(decryptSecret(row.httpHeadersEncrypted!))).toEqual({
      Authorization: "Bearer super-secret-token-9876",
      "X-Team": "qa",
    });
    const list = await call(collection.GET, { token: tokens.viewer, url: "/api/v1/agents?limit=200" });
    expect(list.text).not.toContain("super-secret-token");
    expect(list.text).not.toContain(row.httpHeadersEncrypted!);
  });

  it("declares an HTTP agent's rate limits, keeps them through a PATCH of another http field, and names a bad one", async () => {
    const base = httpAgent();
    const res = await create({ ...base, name: "Limited agent", http: { ...base.http, rpm: 120, max_concurrency: 4 } });
    expect(res.status).toBe(201);
    expect(res.json.http).toMatchObject({ rpm: 120, tpm: null, max_concurrency: 4 });
    const patched = await call(single.PATCH, {
      method: "PATCH",
      token: tokens.editor,
      params: { id: res.json.id },
      body: { http: { timeout_ms: 9000 } },
    });
    expect(patched.json.http).toMatchObject({ timeout_ms: 9000, rpm: 120, max_concurrency: 4 });
    expect(await db.agent.findUniqueOrThrow({ where: { id: res.json.id } })).toMatchObject({
      httpRpm: 120,
      httpTpm: null,
      httpMaxConcurrency: 4,
    });

    const bad = await create({ ...base, name: "Badly limited agent", http: { ...base.http, tpm: -5 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues).toEqual([{ path: "http.tpm", message: "Tokens per minute must be at least 1" }]);
  });

  it("keeps masked header values on update and replaces changed ones", async () => {
    const { json: agent } = await create(httpAgent());
    const stored = async () =>
      JSON.parse(decryptSecret((await db.agent.findUniqueOrThrow({ where: { id: agent.id } })).httpHeadersEncrypted!));
    const patch = (body: unknown) => call(single.PATCH, { method: "PATCH", token: tokens.editor, params: { id: agent.id }, body });

    // Sending back exactly what was read keeps every secret.
    const echoed = await patch({ ...agent, name: `${agent.name} v2` });
    expect(echoed.status).toBe(200);
    expect(await stored()).toEqual({ Authorization: "Bearer super-secret-token-9876", "X-Team": "qa" });

    // Changing one value and adding a header; the masked one is kept (header name case-insensitive).
    const changed = await patch({ http: { headers: { authorization: "••••9876", "X-Team": "platform", "X-New": "value-0001" } } });
    expect(changed.status).toBe(200);
    expect(changed.json.http).toMatchObject({
      url: "http://localhost:8080/chat",
      timeout_ms: 5000,
      headers: { authorization: "••••9876", "X-Team": "••••", "X-New": "••••0001" },
    });
    expect(await stored()).toEqual({ authorization: "Bearer super-secret-token-9876", "X-Team": "platform", "X-New": "value-0001" });

    // `http` merges one level deep: a new timeout keeps URL and headers.
    await patch({ http: { timeout_ms: 9000 } });
    expect(await stored()).toMatchObject({ "X-New": "value-0001" });
    expect((await call(single.GET, { token: tokens.viewer, params: { id: agent.id } })).json.http.timeout_ms).toBe(9000);

    // Dropping a header removes it; an empty header object clears the ciphertext.
    await patch({ http: { headers: {} } });
    const row = await db.agent.findUniqueOrThrow({ where: { id: agent.id } });
    expect(row.httpHeadersEncrypted).toBeNull();
    expect(row.httpHeaderNames).toEqual([]);
  });

  it("PATCH merges: omitted fields (tools, variables) are kept; the merged agent is validated", async () => {
    const { json: agent } = await create(chat());
    const res = await call(single.PATCH, {
      method: "PATCH",
      token: tokens.editor,
      params: { id: agent.id },
      body: { system_prompt: "New prompt" },
    });
    expect(res.status).toBe(200);
    expect(res.json.system_prompt).toBe("New prompt");
    expect(res.json.tools).toEqual(agent.tools);
    const invalid = await call(single.PATCH, {
      method: "PATCH",
      token: tokens.editor,
      params: { id: agent.id },
      body: { model_config_id: null },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.json.error.issues).toEqual([{ path: "model_config_id", message: "A chat agent needs a model configuration" }]);
    const switched = await call(single.PATCH, { method: "PATCH", token: tokens.editor, params: { id: agent.id }, body: { kind: "http" } });
    expect(switched.json.error.issues).toEqual([{ path: "http.url", message: "An HTTP agent needs a URL" }]);
    const notObject = await call(single.PATCH, { method: "PATCH", token: tokens.editor, params: { id: agent.id }, body: ["x"] });
    expect(notObject.status).toBe(400);
  });

  /** A body change whose one variable is valid but for `over`. */
  const withVariable = (over: Record<string, unknown>) => ({ variables_schema: [variable("x", "string", over)] });
  const invalid: [string, Record<string, unknown>, string, string][] = [
    ["empty name", { name: " " }, "name", "Name is required"],
    ["long name", { name: "x".repeat(101) }, "name", "Use at most 100 characters"],
    ["unknown kind", { kind: "robot" }, "kind", "Kind must be chat or http"],
    ["chat without model", { model_config_id: null }, "model_config_id", "A chat agent needs a model configuration"],
    ["malformed model id", { model_config_id: "abc" }, "model_config_id", "Choose a model configuration"],
    ["model of another workspace", { model_config_id: "FOREIGN" }, "model_config_id", "Choose a model configuration of this workspace"],
    ["unknown model id", { model_config_id: "00000000-0000-4000-8000-000000000000" }, "model_config_id", "of this workspace"],
    ["tool name", { tools: [{ name: "get weather" }] }, "tools.0.name", "Use letters, digits, _ and - only"],
    ["tool name missing", { tools: [{ name: "" }] }, "tools.0.name", "Tool name is required"],
    ["duplicate tools", { tools: [{ name: "a" }, { name: "a" }] }, "tools.1.name", 'Duplicate tool name "a"'],
    [
      "parameters not object schema",
      { tools: [{ name: "a", parameters: { type: "array" } }] },
      "tools.0.parameters",
      'Parameters must be a JSON schema with "type": "object"',
    ],
    ["parameters not object", { tools: [{ name: "a", parameters: "{}" }] }, "tools.0.parameters", ""],
    ["http without url", { kind: "http" }, "http.url", "An HTTP agent needs a URL"],
    ["http bad url", { kind: "http", http: { url: "file:///etc/passwd" } }, "http.url", "Enter an http(s) URL"],
    ["http metadata url", { kind: "http", http: { url: "http://169.254.169.254/latest" } }, "http.url", "cloud metadata address"],
    [
      "http timeout low",
      { kind: "http", http: { url: "http://localhost/x", timeout_ms: 50 } },
      "http.timeout_ms",
      "Timeout must be at least 100 ms",
    ],
    [
      "http timeout high",
      { kind: "http", http: { url: "http://localhost/x", timeout_ms: 600_001 } },
      "http.timeout_ms",
      "Timeout must be at most 600000 ms",
    ],
    ["http timeout fraction", { kind: "http", http: { url: "http://localhost/x", timeout_ms: 1.5 } }, "http.timeout_ms", "whole number"],
    [
      "header name",
      { kind: "http", http: { url: "http://localhost/x", headers: { "Bad Header": "x" } } },
      "http.headers",
      "may only contain",
    ],
    [
      "header duplicate",
      { kind: "http", http: { url: "http://localhost/x", headers: { "X-A": "1", "x-a": "2" } } },
      "http.headers",
      "listed twice",
    ],
    [
      "header newline",
      { kind: "http", http: { url: "http://localhost/x", headers: { "X-A": "1\r\nInjected: yes" } } },
      "http.headers",
      "single line",
    ],
    ["variable name", withVariable({ name: "1x" }), "variables_schema.0.name", "Use letters, digits and _"],
    ["variable display", withVariable({ display_name: "" }), "variables_schema.0.display_name", "Display name is required"],
    ["variable type", withVariable({ data_type: "list" }), "variables_schema.0.data_type", "Data type must be"],
    ["variable source", withVariable({ value_source: "env" }), "variables_schema.0.value_source", "Value source must be"],
    [
      "static without values",
      withVariable({ value_source: "static" }),
      "variables_schema.0.possible_values",
      "at least one possible value",
    ],
    [
      "possible value type",
      withVariable({ data_type: "number", value_source: "static", possible_values: [{ value: "one" }] }),
      "variables_schema.0.possible_values.0.value",
      "Value must be a number",
    ],
    [
      "default not possible",
      withVariable({ value_source: "static", possible_values: [{ value: "a" }], default_value: "b" }),
      "variables_schema.0.default_value",
      "one of the possible values",
    ],
    [
      "default wrong type",
      withVariable({ data_type: "boolean", default_value: "yes" }),
      "variables_schema.0.default_value",
      "true or false",
    ],
    ["date default", withVariable({ data_type: "date", default_value: "tomorrow" }), "variables_schema.0.default_value", "ISO date"],
    [
      "duplicate variables",
      { variables_schema: [variable("x", "string"), variable("x", "string", { display_name: "Y" })] },
      "variables_schema.1.name",
      'Duplicate variable "x"',
    ],
  ];
  it.each(invalid)("rejects %s at its field", async (_label, change, path, message) => {
    const body = { ...chat(), ...change };
    if (body.model_config_id === "FOREIGN") body.model_config_id = foreignConfigId;
    const res = await create(body);
    expect(res.status, JSON.stringify(res.json)).toBe(400);
    const issue = res.json.error.issues.find((i: { path: string }) => i.path === path);
    expect(issue, JSON.stringify(res.json.error.issues)).toBeTruthy();
    expect(issue.message).toContain(message);
  });

  it("accepts every variable data type with matching values", async () => {
    const res = await create({
      ...chat(),
      variables_schema: [
        {
          name: "n",
          display_name: "N",
          data_type: "number",
          value_source: "static",
          possible_values: [{ value: 1 }, { value: 2 }],
          default_value: 2,
          required: true,
        },
        { name: "b", display_name: "B", data_type: "boolean", value_source: "freeform", default_value: false },
        { name: "d", display_name: "D", data_type: "date", value_source: "freeform", default_value: "2025-01-31" },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.json.variables_schema.map((v: { default_value: unknown }) => v.default_value)).toEqual([2, false, "2025-01-31"]);
  });

  it("refuses duplicate names with 409 at `name`, per workspace", async () => {
    const body = chat();
    expect((await create(body)).status).toBe(201);
    const dup = await create(body);
    expect(dup.status).toBe(409);
    expect(dup.json.error.issues).toEqual([{ path: "name", message: expect.stringContaining("already exists") }]);
    const otherConfig = foreignConfigId;
    expect((await create({ ...body, model_config_id: otherConfig }, tokens.otherEditor)).status).toBe(201);
    const { json: second } = await create(chat());
    const rename = await call(single.PATCH, {
      method: "PATCH",
      token: tokens.editor,
      params: { id: second.id },
      body: { name: body.name },
    });
    expect(rename.status).toBe(409);
  });

  it("paginates by name", async () => {
    const { workspace } = await makeWorkspace("owner");
    const token = await makeApiKey(workspace.id, "editor");
    const cfg = await db.modelConfig.create({
      data: { workspaceId: workspace.id, name: "c", baseUrl: "http://127.0.0.1:1/v1", model: "m" },
    });
    const names = ["b", "a", "e", "c", "d", "f", "g"];
    for (const name of names) await create({ ...chat(), name, model_config_id: cfg.id }, token);
    const { items } = await readAllPages<{ name: string }>(async (cursor) => {
      const res = await call(collection.GET, { url: `/api/v1/agents?limit=3${cursor ? `&cursor=${cursor}` : ""}`, token });
      return res.json;
    }, 3);
    expect(items.map((a) => a.name)).toEqual([...names].sort());
    expect((await call(collection.GET, { url: "/api/v1/agents?cursor=%%%", token })).status).toBe(400);
  });

  it("enforces 401 / 403 / 404 on every route", async () => {
    const { json: agent } = await create(chat());
    const { json: foreign } = await create({ ...chat(), model_config_id: foreignConfigId }, tokens.otherEditor);
    const routes = [
      { handler: collection.GET, method: "GET", params: {}, role: "viewer" },
      { handler: collection.POST, method: "POST", params: {}, role: "editor", body: chat() },
      { handler: single.GET, method: "GET", params: { id: agent.id }, role: "viewer" },
      { handler: single.PATCH, method: "PATCH", params: { id: agent.id }, role: "editor", body: { description: "x" } },
      { handler: single.DELETE, method: "DELETE", params: { id: agent.id }, role: "editor" },
    ] as const;
    for (const r of routes) {
      const body = "body" in r ? r.body : undefined;
      expect((await call(r.handler, { method: r.method, params: r.params, body })).status).toBe(401);
      expect((await call(r.handler, { method: r.method, params: r.params, body, token: `${tokens.editor}x` })).status).toBe(401);
      if (r.role === "editor")
        expect((await call(r.handler, { method: r.method, params: r.params, body, token: tokens.viewer })).status, r.method).toBe(403);
    }
    await expectHiddenFromOtherWorkspace(single, { token: tokens.admin, foreignId: foreign.id, patch: { name: "stolen" }, badId: "123" });
    expect((await db.agent.findUniqueOrThrow({ where: { id: foreign.id } })).name).toBe(foreign.name);
    // Admins may author agents too.
    expect((await create(chat(), tokens.admin)).status).toBe(201);
  });

  it("deletes with 204; refuses while live suites exist; suites in the trash go with it", async () => {
    const { json: agent } = await create(chat());
    const suite = await db.suite.create({ data: { workspaceId: ws.workspace.id, agentId: agent.id, name: "Live" } });
    const refused = await call(single.DELETE, { method: "DELETE", token: tokens.editor, params: { id: agent.id } });
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toContain("1 suite");
    await db.suite.update({ where: { id: suite.id }, data: { deletedAt: new Date() } });
    const ok = await call(single.DELETE, { method: "DELETE", token: tokens.editor, params: { id: agent.id } });
    expect(ok.status).toBe(204);
    expect(await db.suite.findUnique({ where: { id: suite.id } })).toBeNull();
    expect((await call(single.GET, { token: tokens.viewer, params: { id: agent.id } })).status).toBe(404);
  });
});
