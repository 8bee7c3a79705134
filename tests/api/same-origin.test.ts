/**
 * The session routes under /api/w refuse state-changing requests another site starts in the
 * user's browser (the cookie goes along): Origin, else Sec-Fetch-Site, as Next.js checks for
 * server actions. Reads and API-key routes are unaffected.
 */
import { describe, expect, it, vi } from "vitest";

// The session routes read the signed-in user from Auth.js: a test decides who that is.
vi.mock("@/lib/auth", () => import("../helpers/session"));

import { NextRequest } from "next/server";
import { db } from "@/lib/db";
import { withApi, withSession } from "@/lib/api/handler";
import { isSameOriginRequest } from "@/lib/api/same-origin";
import * as filesRoute from "@/app/api/w/[workspaceId]/files/route";
import { call } from "../helpers/api";
import { addMember, makeApiKey, makeWorkspace } from "../helpers/factories";
import { session } from "../helpers/session";

const h = (headers: Record<string, string>) => new Headers(headers);

describe("isSameOriginRequest", () => {
  it("takes an Origin whose host is the Host or the forwarded host; refuses any other and `null`", () => {
    expect(isSameOriginRequest(h({ host: "localhost:3000", origin: "http://localhost:3000" }))).toBe(true);
    expect(isSameOriginRequest(h({ host: "Assay.Example.com", origin: "https://assay.example.com" }))).toBe(true);
    // Behind a reverse proxy: Host is the upstream, X-Forwarded-Host what the browser used.
    expect(
      isSameOriginRequest(
        h({ host: "127.0.0.1:3000", "x-forwarded-host": "assay.example.com, proxy", origin: "https://assay.example.com" }),
      ),
    ).toBe(true);
    // Another port of the same host is another origin (and the same site, so Lax cookies go along).
    expect(isSameOriginRequest(h({ host: "localhost:3000", origin: "http://localhost:4000" }))).toBe(false);
    expect(isSameOriginRequest(h({ host: "assay.example.com", origin: "https://evil.example.net" }))).toBe(false);
    expect(isSameOriginRequest(h({ host: "assay.example.com", origin: "null" }))).toBe(false);
    expect(isSameOriginRequest(h({ host: "assay.example.com", origin: "not a url" }))).toBe(false);
    expect(isSameOriginRequest(h({ origin: "https://assay.example.com" }))).toBe(false);
  });

  it("without an Origin, goes by Sec-Fetch-Site; with neither header (no browser), lets it through", () => {
    expect(isSameOriginRequest(h({ host: "a.test", "sec-fetch-site": "same-origin" }))).toBe(true);
    expect(isSameOriginRequest(h({ host: "a.test", "sec-fetch-site": "none" }))).toBe(true);
    expect(isSameOriginRequest(h({ host: "a.test", "sec-fetch-site": "same-site" }))).toBe(false);
    expect(isSameOriginRequest(h({ host: "a.test", "sec-fetch-site": "cross-site" }))).toBe(false);
    expect(isSameOriginRequest(h({ host: "a.test" }))).toBe(true);
  });
});

describe("session routes and cross-site requests", () => {
  const seen: string[] = [];
  const route = withSession({
    role: "viewer",
    handler: async ({ req }) => {
      seen.push(req.method);
      return { json: { ok: true } };
    },
  });
  const send = (method: string, headers: Record<string, string>, workspaceId: string) =>
    call(route, { url: `/api/w/${workspaceId}/thing`, method, headers, params: { workspaceId }, body: method === "GET" ? undefined : {} });

  it("answers 403 to a cross-site POST/PUT/PATCH/DELETE before anything runs, and serves the same from this app's pages", async () => {
    const { ctx, user } = await makeWorkspace("owner");
    session.userId = user.id;
    const crossSite: Record<string, string>[] = [
      { host: "localhost:3000", origin: "http://localhost:4000" },
      { host: "localhost:3000", origin: "https://evil.example.net" },
      { host: "localhost:3000", "sec-fetch-site": "cross-site" },
      { host: "localhost:3000", "sec-fetch-site": "same-site" },
    ];
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      for (const headers of crossSite) {
        const res = await send(method, headers, ctx.workspaceId);
        expect(res.status, `${method} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.json.error).toMatchObject({ code: "forbidden", message: expect.stringContaining("Cross-site request refused") });
      }
    }
    expect(seen).toEqual([]);

    const sameOrigin = { host: "localhost:3000", origin: "http://localhost:3000", "sec-fetch-site": "same-origin" };
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) expect((await send(method, sameOrigin, ctx.workspaceId)).status).toBe(200);
    // Reads stay allowed from anywhere (they change nothing; the browser keeps the answer from the other site).
    expect((await send("GET", crossSite[0]!, ctx.workspaceId)).status).toBe(200);
    expect(seen).toEqual(["POST", "PUT", "PATCH", "DELETE", "GET"]);
    session.userId = null;
  });

  it("a cross-site upload to /api/w/{workspaceId}/files stores nothing; API-key routes ignore Origin", async () => {
    const { ctx } = await makeWorkspace("owner");
    session.userId = (await addMember(ctx.workspaceId, "editor")).user.id;
    const upload = (headers: Record<string, string>) => {
      const form = new FormData();
      form.append("file", new Blob([new TextEncoder().encode("planted by another site")], { type: "text/plain" }), "planted.txt");
      const req = new NextRequest(new URL(`/api/w/${ctx.workspaceId}/files`, "http://localhost:3000"), {
        method: "POST",
        headers,
        body: form,
      });
      return filesRoute.POST(req, { params: Promise.resolve({ workspaceId: ctx.workspaceId }) });
    };
    const refused = await upload({ host: "localhost:3000", origin: "http://localhost:4000" });
    expect(refused.status).toBe(403);
    expect(await db.storedFile.count({ where: { workspaceId: ctx.workspaceId } })).toBe(0);
    const stored = await upload({ host: "localhost:3000", origin: "http://localhost:3000" });
    expect(stored.status, await stored.clone().text()).toBe(201);
    expect(await db.storedFile.count({ where: { workspaceId: ctx.workspaceId } })).toBe(1);
    session.userId = null;

    const POST = withApi({ role: "viewer", handler: async () => ({ json: { ok: true } }) });
    const token = await makeApiKey(ctx.workspaceId, "viewer");
    const res = await call(POST, { url: "/api/v1/thing", method: "POST", token, headers: { origin: "https://ci.example.net" } });
    expect(res.status).toBe(200);
  });
});
