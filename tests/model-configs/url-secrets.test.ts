import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import * as collection from "@/app/api/v1/model-configs/route";
import * as single from "@/app/api/v1/model-configs/[id]/route";
import { resolveModelEndpoint } from "@/lib/model-configs/service";
import { workspaceWithKeys } from "../helpers/factories";
import { call } from "../helpers/api";

const SECRET = "sk-live-abcdefghijklmnop1234";
const { ws, tokens } = workspaceWithKeys();

async function create(name: string, base_url: string) {
  const res = await call(collection.POST, {
    method: "POST",
    url: "/api/v1/model-configs",
    token: tokens.admin,
    body: { name, base_url, model: "m", api_key: SECRET },
  });
  expect(res.status).toBe(201);
  return res.json.id as string;
}
const patch = (id: string, body: unknown) =>
  call(single.PATCH, { method: "PATCH", url: `/api/v1/model-configs/${id}`, token: tokens.admin, body, params: { id } });

describe("model configuration secrets follow their host", () => {
  it("changing the base URL's origin without a new key clears the key and says so", async () => {
    const id = await create("moves", "https://api.one.example/v1");
    const res = await patch(id, { base_url: "https://api.two.example/v1" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ base_url: "https://api.two.example/v1", has_api_key: false, api_key_hint: null });
    expect(res.json.warnings).toEqual(["api_key cleared because base_url changed origin"]);
    expect((await resolveModelEndpoint(ws.workspace.id, id)).apiKey).toBeNull();
    const row = await db.modelConfig.findUniqueOrThrow({ where: { id } });
    expect(row.apiKeyEncrypted).toBeNull();
  });

  it("a new key in the same request is kept; a path change on the same origin keeps the stored key", async () => {
    const id = await create("keeps", "https://api.three.example/v1");
    const samePath = await patch(id, { base_url: "https://api.three.example/v2" });
    expect(samePath.json).toMatchObject({ has_api_key: true });
    expect(samePath.json.warnings).toBeUndefined();
    const port = await patch(id, { base_url: "https://api.three.example:8443/v2", api_key: "sk-new-key-0000000000009999" });
    expect(port.json).toMatchObject({ has_api_key: true, base_url: "https://api.three.example:8443/v2" });
    expect(port.json.warnings).toBeUndefined();
    expect((await resolveModelEndpoint(ws.workspace.id, id)).apiKey).toBe("sk-new-key-0000000000009999");
    // http vs https is another origin too.
    const scheme = await patch(id, { base_url: "http://api.three.example:8443/v2" });
    expect(scheme.json).toMatchObject({ has_api_key: false });
  });

  it("masks base URL query values and userinfo for members who cannot manage configurations", async () => {
    const url = "https://u:pw@fn.azurewebsites.net/api/openai?code=SECRETCODE&x=1";
    const id = await create("azure", url);
    for (const role of ["viewer", "editor"] as const) {
      const one = await call(single.GET, { url: `/api/v1/model-configs/${id}`, token: tokens[role], params: { id } });
      expect(one.json.base_url).toBe("https://••••@fn.azurewebsites.net/api/openai?code=••••&x=••••");
      const list = await call(collection.GET, { url: "/api/v1/model-configs", token: tokens[role] });
      expect(list.text).not.toContain("SECRETCODE");
      expect(list.text).not.toContain("pw@");
    }
    const admin = await call(single.GET, { url: `/api/v1/model-configs/${id}`, token: tokens.admin, params: { id } });
    expect(admin.json.base_url).toBe(url);
  });
});
