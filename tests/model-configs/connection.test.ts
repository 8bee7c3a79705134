import http from "node:http";
import type { AddressInfo } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createModelConfig, resolveModelEndpoint, testConnection } from "@/lib/model-configs/service";
import { ForbiddenError, NotFoundError, ValidationError } from "@/lib/errors";
import * as testRoute from "@/app/api/v1/model-configs/[id]/test/route";
import { withFakeOpenAI } from "../helpers/run-stack";
import { DEMO_BASE_URL, DEMO_MODEL } from "@/lib/demo/model";
import { addMember, makeApiKey, makeWorkspace } from "../helpers/factories";
import { call } from "../helpers/api";

const fake = withFakeOpenAI();
let ws: Awaited<ReturnType<typeof makeWorkspace>>;
let n = 0;

beforeAll(async () => {
  ws = await makeWorkspace("admin");
});

async function config(overrides: Partial<Parameters<typeof createModelConfig>[1]> = {}) {
  return createModelConfig(ws.ctx, {
    name: `c${n++}`,
    base_url: fake.url,
    model: "gpt-4o-mini",
    embedding_model: null,
    api_key: "sk-test-key-1234567890",
    temperature: null,
    max_tokens: null,
    ...overrides,
  });
}

describe("test connection", () => {
  it("reaches the built-in demo model in process, without a key or the network", async () => {
    const c = await config({ base_url: DEMO_BASE_URL, model: DEMO_MODEL, api_key: null });
    expect(await testConnection(ws.ctx, c.id)).toMatchObject({ ok: true });
    expect(fake.requests).toHaveLength(0);
  });

  it("succeeds against the fake endpoint with a tiny completion and the stored key", async () => {
    const c = await config();
    const result = await testConnection(ws.ctx, c.id);
    expect(result).toMatchObject({ ok: true, model: expect.any(String), message: expect.stringContaining("Connected") });
    expect(result.latency_ms).toBeGreaterThanOrEqual(0);
    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(req.endpoint).toBe("chat");
    expect(req.body.model).toBe("gpt-4o-mini");
    expect(req.body.max_tokens).toBeGreaterThanOrEqual(1);
    expect(req.body.max_tokens).toBeLessThanOrEqual(5);
    expect(req.headers.authorization).toBe("Bearer sk-test-key-1234567890");
  });

  it("sends no Authorization header when no key is saved", async () => {
    const c = await config({ api_key: null });
    expect((await testConnection(ws.ctx, c.id)).ok).toBe(true);
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
  });

  it.each([
    [401, "The endpoint rejected the API key (401)"],
    [403, "not allowed"],
    [429, "rate limiting"],
    [500, "server error (500)"],
    [400, "refused the request (400)"],
  ])("explains HTTP %i readably", async (status, text) => {
    const c = await config();
    fake.addRule({ reply: { status } });
    const result = await testConnection(ws.ctx, c.id);
    expect(result.ok).toBe(false);
    expect(result.message).toContain(text);
    expect(fake.requests).toHaveLength(1); // maxRetries 0
  });

  it("says the key is missing on 401 without a saved key", async () => {
    const c = await config({ api_key: null });
    fake.addRule({ reply: { status: 401 } });
    expect((await testConnection(ws.ctx, c.id)).message).toContain("none is saved");
  });

  it("distinguishes an unknown model from a wrong base URL on 404", async () => {
    const model = await config();
    fake.addRule({ reply: { status: 404, content: "The model `gpt-4o-mini` does not exist or you do not have access to it." } });
    expect((await testConnection(ws.ctx, model.id)).message).toContain('Model "gpt-4o-mini" was not found');

    const wrongPath = await config({ base_url: fake.url.replace(/\/v1$/, "/api") });
    const result = await testConnection(ws.ctx, wrongPath.id);
    expect(result.ok).toBe(false);
    expect(result.message).toContain("check the base URL");
  });

  it("reports a garbled answer without throwing", async () => {
    const c = await config();
    fake.addRule({ reply: { garbled: true } });
    const result = await testConnection(ws.ctx, c.id);
    expect(result.ok).toBe(false);
    expect(result.message).not.toMatch(/Unexpected|SyntaxError|at Object/);
  });

  it("reports a refused connection", async () => {
    const server = http.createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    await new Promise((r) => server.close(r));
    const c = await config({ base_url: `http://127.0.0.1:${port}/v1` });
    const result = await testConnection(ws.ctx, c.id);
    expect(result).toMatchObject({ ok: false, message: expect.stringContaining("Connection refused") });
  });

  it("times out after about 10 s", { timeout: 20_000 }, async () => {
    const c = await config();
    fake.addRule({ reply: { hang: true } });
    const started = Date.now();
    const result = await testConnection(ws.ctx, c.id);
    expect(result.ok).toBe(false);
    expect(result.message).toContain("did not answer within 10 s");
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_500);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("refuses metadata addresses without connecting, whatever the instance allows", async () => {
    // Stored directly: the service refuses such base URLs at save time.
    const row = await db.modelConfig.create({
      data: { workspaceId: ws.workspace.id, name: `meta${n++}`, baseUrl: "http://169.254.169.254/v1", model: "m" },
    });
    const result = await testConnection(ws.ctx, row.id);
    expect(result).toMatchObject({ ok: false, message: expect.stringContaining("refused: cloud metadata address") });
    expect(result.latency_ms).toBeLessThan(1_000);
  });

  it("is for admins only, scoped to the workspace", async () => {
    const c = await config();
    const editor = await addMember(ws.workspace.id, "editor");
    await expect(testConnection(editor.ctx, c.id)).rejects.toBeInstanceOf(ForbiddenError);
    const stranger = await makeWorkspace("owner");
    await expect(testConnection(stranger.ctx, c.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("POST /api/v1/model-configs/{id}/test answers {ok, latency_ms, model, message}; admin only; 404 elsewhere", async () => {
    const c = await config();
    const admin = await makeApiKey(ws.workspace.id, "admin");
    const res = await call(testRoute.POST, { method: "POST", token: admin, params: { id: c.id } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(["latency_ms", "message", "model", "ok"]);
    expect(res.json.ok).toBe(true);
    expect(res.text).not.toContain("sk-test-key");

    fake.addRule({ reply: { status: 401 } });
    const rejected = await call(testRoute.POST, { method: "POST", token: admin, params: { id: c.id } });
    expect(rejected.status).toBe(200);
    expect(rejected.json).toMatchObject({ ok: false, message: expect.stringContaining("rejected the API key") });

    expect((await call(testRoute.POST, { method: "POST", params: { id: c.id } })).status).toBe(401);
    expect(
      (await call(testRoute.POST, { method: "POST", token: await makeApiKey(ws.workspace.id, "editor"), params: { id: c.id } })).status,
    ).toBe(403);
    const other = await makeWorkspace("owner");
    expect(
      (await call(testRoute.POST, { method: "POST", token: await makeApiKey(other.workspace.id, "admin"), params: { id: c.id } })).status,
    ).toBe(404);
  });
});

describe("resolveModelEndpoint", () => {
  it("returns the decrypted key for the executor, scoped by workspace", async () => {
    const c = await config({ api_key: "sk-resolve-me-000000", temperature: 0.2, max_tokens: 100, embedding_model: "emb" });
    expect(await resolveModelEndpoint(ws.workspace.id, c.id)).toEqual({
      baseUrl: fake.url,
      model: "gpt-4o-mini",
      embeddingModel: "emb",
      apiKey: "sk-resolve-me-000000",
      temperature: 0.2,
      maxTokens: 100,
      limits: { rpm: null, tpm: null, maxConcurrency: null },
    });
    const other = await makeWorkspace("owner");
    await expect(resolveModelEndpoint(other.workspace.id, c.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(resolveModelEndpoint(ws.workspace.id, "nope")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("asks for the key again when it cannot be decrypted", async () => {
    const c = await config();
    await db.modelConfig.update({ where: { id: c.id }, data: { apiKeyEncrypted: "v1.AAAA.BBBB.CCCC" } });
    await expect(resolveModelEndpoint(ws.workspace.id, c.id)).rejects.toBeInstanceOf(ValidationError);
  });
});
