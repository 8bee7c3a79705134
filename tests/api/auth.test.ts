import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { z } from "zod";
import { withApi } from "@/lib/api/handler";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/service";
import { call } from "../helpers/api";
import { makeApiKey, makeWorkspace } from "../helpers/factories";

// A tiny route handler that goes through the real wrapper: auth, role, ids, zod, envelope.
const seen: { workspaceId: string; role: string }[] = [];
const POST = withApi({
  role: "editor",
  query: z.object({ limit: z.coerce.number().int().min(1).max(10).default(5) }),
  body: z.object({
    name: z.string().min(1, "Name is required"),
    items: z.array(z.object({ n: z.number({ error: "n must be a number" }) })).default([]),
  }),
  handler: async ({ ctx, body, query, params }) => {
    seen.push({ workspaceId: ctx.workspaceId, role: ctx.role });
    return { status: 201, json: { workspace_id: ctx.workspaceId, name: body.name, limit: query.limit, id: params.id ?? null } };
  },
});

const url = "/api/v1/things";
const validBody = { name: "ok" };

function expectEnvelope(json: unknown, code: string) {
  expect(json).toEqual({ error: { code, message: expect.any(String), issues: expect.any(Array) } });
}

describe("withApi authentication", () => {
  it("answers 401 without a key, with a malformed header, an unknown key or a revoked key", async () => {
    const { ctx } = await makeWorkspace("owner");
    const { key, token } = await createApiKey(ctx, { name: "soon revoked", role: "admin" });
    await revokeApiKey(ctx, key.id);

    const noKey = await call(POST, { url, method: "POST", body: validBody });
    expect(noKey.status).toBe(401);
    expectEnvelope(noKey.json, "unauthorized");

    // Raw Authorization headers (the call() helper always writes a well-formed "Bearer <token>").
    const req = (authorization: string) =>
      POST(
        new NextRequest(new URL(url, "http://localhost"), {
          method: "POST",
          headers: { authorization, "content-type": "application/json" },
          body: JSON.stringify(validBody),
        }),
        { params: Promise.resolve({}) },
      );
    for (const header of ["Basic abc:def", "Bearer", `Token ${token}`, "Bearer two words"]) {
      const res = await req(header);
      expect(res.status, header).toBe(401);
      expectEnvelope(await res.json(), "unauthorized");
    }

    const unknown = await call(POST, { url, method: "POST", token: "assay_" + "x".repeat(40), body: validBody });
    expect(unknown.status).toBe(401);
    const revoked = await call(POST, { url, method: "POST", token, body: validBody });
    expect(revoked.status).toBe(401);
    expect(revoked.json.error.message).toMatch(/revoked/i);
    expect(seen).toEqual([]);
  });

  it("answers 403 for a role that may not, and runs the handler for one that may", async () => {
    const { workspace } = await makeWorkspace("owner");
    const viewer = await makeApiKey(workspace.id, "viewer");
    const editor = await makeApiKey(workspace.id, "editor");
    const admin = await makeApiKey(workspace.id, "admin");

    const forbidden = await call(POST, { url, method: "POST", token: viewer, body: validBody });
    expect(forbidden.status).toBe(403);
    expectEnvelope(forbidden.json, "forbidden");

    for (const token of [editor, admin]) {
      const res = await call(POST, { url: `${url}?limit=3`, method: "POST", token, body: validBody });
      expect(res.status).toBe(201);
      expect(res.json).toEqual({ workspace_id: workspace.id, name: "ok", limit: 3, id: null });
    }
    expect(seen.map((s) => s.role)).toEqual(["editor", "admin"]);
  });
});

describe("withApi input handling", () => {
  it("answers 400 with the envelope for malformed JSON", async () => {
    const { workspace } = await makeWorkspace("owner");
    const token = await makeApiKey(workspace.id, "editor");
    const res = await call(POST, { url, method: "POST", token, rawBody: "{not json", contentType: "application/json" });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: { code: "invalid_input", message: "Body is not valid JSON", issues: [{ path: "", message: "invalid JSON" }] },
    });
  });

  it("answers 400 with every zod issue at its path for the body and the query", async () => {
    const { workspace } = await makeWorkspace("owner");
    const token = await makeApiKey(workspace.id, "editor");
    const res = await call(POST, { url, method: "POST", token, body: { name: "", items: [{ n: 1 }, { n: "two" }] } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_input");
    expect(res.json.error.issues).toEqual([
      { path: "name", message: "Name is required" },
      { path: "items.1.n", message: "n must be a number" },
    ]);

    const badQuery = await call(POST, { url: `${url}?limit=99`, method: "POST", token, body: validBody });
    expect(badQuery.status).toBe(400);
    expect(badQuery.json.error.issues).toEqual([expect.objectContaining({ path: "limit" })]);
  });

  it("answers 404 for a path id that is not a UUID, before touching anything", async () => {
    const { workspace } = await makeWorkspace("owner");
    const token = await makeApiKey(workspace.id, "editor");
    const res = await call(POST, { url, method: "POST", token, body: validBody, params: { id: "../etc" } });
    expect(res.status).toBe(404);
    expectEnvelope(res.json, "not_found");
    const ok = await call(POST, { url, method: "POST", token, body: validBody, params: { id: workspace.id } });
    expect(ok.json.id).toBe(workspace.id);
  });
});
