/**
 * The file store API (POST/GET /api/v1/files, GET/DELETE /api/v1/files/{id}, GET …/content) and
 * the session twins the case form uses, through the real route handlers with API keys.
 */
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { db } from "@/lib/db";
import { MAX_FILE_BYTES, fileRef } from "@/lib/files/schemas";
import { contentDisposition } from "@/lib/files/dto";
import { createTestCase, deleteTestCase } from "@/lib/test-cases/service";
import * as filesRoute from "@/app/api/v1/files/route";
import * as fileRoute from "@/app/api/v1/files/[id]/route";
import * as contentRoute from "@/app/api/v1/files/[id]/content/route";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { call, readAllPages } from "../helpers/api";
import { addMember, makeApiKey, makeWorkspace, makeWorkspaceWithSuiteAndKeys, runnableCase } from "../helpers/factories";
import { makeCsv, makePdf, makePng } from "./fixtures";
import { session } from "../helpers/session";

// The session routes read the signed-in user from Auth.js; API-key routes never do.
vi.mock("@/lib/auth", () => import("../helpers/session"));

type Handler = (req: NextRequest, route: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** POSTs `bytes` as the multipart field `field` (what a browser or curl -F sends). */
export async function upload(
  handler: Handler,
  token: string | null,
  bytes: Uint8Array,
  name: string,
  opts: { field?: string; clientType?: string; url?: string; params?: Record<string, string> } = {},
) {
  const form = new FormData();
  form.append(opts.field ?? "file", new Blob([new Uint8Array(bytes)], { type: opts.clientType ?? "application/octet-stream" }), name);
  const headers = new Headers();
  if (token) headers.set("authorization", `Bearer ${token}`);
  const req = new NextRequest(new URL(opts.url ?? "/api/v1/files", "http://localhost"), { method: "POST", headers, body: form });
  const res = await handler(req, { params: Promise.resolve(opts.params ?? {}) });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary response shapes
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, json, text, headers: res.headers };
}

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

let ctx: WorkspaceContext;
let editorKey: string;
let viewerKey: string;
let otherKey: string;
let suiteId: string;

beforeAll(async () => {
  ({
    ctx,
    suiteId,
    keys: { editor: editorKey, viewer: viewerKey },
  } = await makeWorkspaceWithSuiteAndKeys(["editor", "viewer"]));
  otherKey = (await makeWorkspaceWithSuiteAndKeys(["admin"])).keys.admin;
});

const get = (token: string, id: string) => call(fileRoute.GET, { url: `/api/v1/files/${id}`, token, params: { id } });
const del = (token: string, id: string) => call(fileRoute.DELETE, { url: `/api/v1/files/${id}`, method: "DELETE", token, params: { id } });
const content = async (token: string, id: string) => {
  const req = new NextRequest(new URL(`/api/v1/files/${id}/content`, "http://localhost"), {
    headers: { authorization: `Bearer ${token}` },
  });
  const res = await contentRoute.GET(req, { params: Promise.resolve({ id }) });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
};

describe("POST /api/v1/files", () => {
  it("stores an upload: 201 with the fields, the sha256 of the bytes and the type sniffed from the content", async () => {
    const pdf = await makePdf(["Invoice 42"]);
    // The client's name and content type claim an image: neither is trusted.
    const res = await upload(filesRoute.POST, editorKey, pdf, "invoice.png", { clientType: "image/png" });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({
      id: expect.any(String),
      name: "invoice.png",
      size_bytes: pdf.byteLength,
      content_type: "application/pdf",
      type: "pdf",
      sha256: sha(pdf),
      origin: "upload",
      created_at: expect.any(String),
    });
    expect(res.json).not.toHaveProperty("storage_key");
  });

  it("deduplicates by content per workspace: the same bytes twice are one record and one blob", async () => {
    const png = await makePng(7, 5);
    const first = await upload(filesRoute.POST, editorKey, png, "a.png");
    const second = await upload(filesRoute.POST, editorKey, png, "renamed.png");
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.json.id).toBe(first.json.id);
    expect(second.json.name).toBe("a.png");
    expect(await db.storedFile.count({ where: { workspaceId: ctx.workspaceId, sha256: sha(png) } })).toBe(1);
    expect(await db.fileBlob.count({ where: { key: { endsWith: sha(png) } } })).toBe(1);
    // Another workspace uploading the same bytes gets its own record.
    const other = await upload(filesRoute.POST, otherKey, png, "a.png");
    expect(other.status).toBe(201);
    expect(other.json.id).not.toBe(first.json.id);
  });

  it("refuses more than 25 MB with 413: a declared Content-Length before reading, and a 25 MB + 1 byte file", async () => {
    const declared = new NextRequest(new URL("/api/v1/files", "http://localhost"), {
      method: "POST",
      headers: {
        authorization: `Bearer ${editorKey}`,
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(MAX_FILE_BYTES * 2),
      },
      body: "--x--",
    });
    const early = await filesRoute.POST(declared, { params: Promise.resolve({}) });
    expect(early.status).toBe(413);
    expect((await early.json()).error.code).toBe("payload_too_large");

    const big = await upload(filesRoute.POST, editorKey, Buffer.alloc(MAX_FILE_BYTES + 1, 0x61), "big.txt");
    expect(big.status).toBe(413);
    expect(big.json.error).toMatchObject({ code: "payload_too_large", message: expect.stringContaining("25 MB") });
    // Exactly 25 MB passes.
    const max = await upload(filesRoute.POST, editorKey, Buffer.alloc(MAX_FILE_BYTES, 0x62), "max.txt");
    expect(max.status, max.text).toBe(201);
    expect(max.json.size_bytes).toBe(MAX_FILE_BYTES);
  });

  it("refuses a streamed (chunked) body once it passes the limit", async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x63);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 40) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const req = new NextRequest(new URL("/api/v1/files", "http://localhost"), {
      method: "POST",
      headers: { authorization: `Bearer ${editorKey}`, "content-type": "multipart/form-data; boundary=x" },
      body,
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);
    const res = await filesRoute.POST(req, { params: Promise.resolve({}) });
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(40);
  });

  it("answers 400 naming `file` when the field is missing or empty, and 415 for a non-multipart body", async () => {
    const wrongField = await upload(filesRoute.POST, editorKey, Buffer.from("hello"), "a.txt", { field: "document" });
    expect(wrongField.status).toBe(400);
    expect(wrongField.json.error.issues).toEqual([expect.objectContaining({ path: "file" })]);
    const empty = await upload(filesRoute.POST, editorKey, new Uint8Array(0), "empty.txt");
    expect(empty.status).toBe(400);
    expect(empty.json.error.issues[0]).toMatchObject({ path: "file", message: "The file is empty" });

    const form = new FormData();
    form.append("file", "just text, not a file");
    const req = new NextRequest(new URL("/api/v1/files", "http://localhost"), {
      method: "POST",
      headers: { authorization: `Bearer ${editorKey}` },
      body: form,
    });
    const textField = await filesRoute.POST(req, { params: Promise.resolve({}) });
    expect(textField.status).toBe(400);

    const json = await call(filesRoute.POST, { url: "/api/v1/files", method: "POST", token: editorKey, body: { file: "x" } });
    expect(json.status).toBe(415);
    expect(json.json.error).toMatchObject({ code: "unsupported_media_type", issues: [expect.objectContaining({ path: "file" })] });
    const broken = await call(filesRoute.POST, {
      url: "/api/v1/files",
      method: "POST",
      token: editorKey,
      rawBody: "not multipart at all",
      contentType: "multipart/form-data; boundary=zzz",
    });
    expect(broken.status).toBe(400);
    expect(broken.json.error.issues[0].path).toBe("file");
  });

  it("keeps control characters and directories out of the stored name", async () => {
    const res = await upload(filesRoute.POST, editorKey, Buffer.from("plain words\n"), "../../etc/pass\u0001wd.txt");
    expect(res.status).toBe(201);
    expect(res.json.name).toBe("passwd.txt");
  });

  it("lets a viewer read but not upload or delete (403), and needs a key (401)", async () => {
    const denied = await upload(filesRoute.POST, viewerKey, Buffer.from("viewer text"), "v.txt");
    expect(denied.status).toBe(403);
    expect((await upload(filesRoute.POST, null, Buffer.from("x"), "v.txt")).status).toBe(401);
    const mine = await upload(filesRoute.POST, editorKey, Buffer.from("for the viewer"), "v.txt");
    expect((await get(viewerKey, mine.json.id)).status).toBe(200);
    expect((await content(viewerKey, mine.json.id)).status).toBe(200);
    expect((await del(viewerKey, mine.json.id)).status).toBe(403);
  });
});

describe("GET /api/v1/files", () => {
  it("pages newest first without gaps or repeats", async () => {
    const { workspace } = await makeWorkspace("owner");
    const key = await makeApiKey(workspace.id, "editor");
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await upload(filesRoute.POST, key, Buffer.from(`file number ${i}`), `f${i}.txt`)).json.id);
    const { items } = await readAllPages<{ id: string }>(async (cursor) => {
      const page = await call(filesRoute.GET, { url: `/api/v1/files${cursor ? `?limit=3&cursor=${cursor}` : "?limit=3"}`, token: key });
      expect(page.status).toBe(200);
      return page.json;
    }, 3);
    expect(items.map((f) => f.id)).toEqual([...ids].reverse());
    const bad = await call(filesRoute.GET, { url: "/api/v1/files?cursor=nope!", token: key });
    expect(bad.status).toBe(400);
  });
});

describe("GET /api/v1/files/{id} and …/content", () => {
  it("returns metadata with the referencing cases, and the identical bytes as an attachment", async () => {
    const csv = makeCsv();
    const up = await upload(filesRoute.POST, editorKey, csv, "Résumé «2024».csv");
    expect(up.json.type).toBe("csv");
    const meta = await get(viewerKey, up.json.id);
    expect(meta.json).toMatchObject({ id: up.json.id, reference_count: 0, referenced_by: [] });
    const tc = await createTestCase(ctx, suiteId, runnableCase({ files: [{ path: fileRef(up.json.id), type: "csv" }] }));
    const after = await get(viewerKey, up.json.id);
    expect(after.json).toMatchObject({ reference_count: 1, referenced_by: [{ id: tc.id, name: tc.name, suite_id: suiteId }] });

    const dl = await content(viewerKey, up.json.id);
    expect(dl.status).toBe(200);
    expect(dl.bytes.equals(csv)).toBe(true);
    expect(dl.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(dl.headers.get("x-content-type-options")).toBe("nosniff");
    expect(dl.headers.get("content-disposition")).toBe(contentDisposition("Résumé «2024».csv"));
    expect(dl.headers.get("content-disposition")).toContain("filename*=UTF-8''R%C3%A9sum%C3%A9%20%C2%AB2024%C2%BB.csv");
    await deleteTestCase(ctx, tc.id);
  });

  it("encodes hostile names safely in Content-Disposition", () => {
    const header = contentDisposition('a"b\\c\r\nSet-Cookie: x=1;.pdf');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toMatch(
      /^attachment; filename="a_b_c__Set-Cookie: x=1;.pdf"; filename\*=UTF-8''a%22b%5Cc%0D%0ASet-Cookie%3A%20x%3D1%3B.pdf$/,
    );
  });

  it("hides other workspaces' files (404) and answers 404 for unknown or malformed ids", async () => {
    const up = await upload(filesRoute.POST, editorKey, Buffer.from("private words"), "private.txt");
    expect((await get(otherKey, up.json.id)).status).toBe(404);
    expect((await content(otherKey, up.json.id)).status).toBe(404);
    expect((await del(otherKey, up.json.id)).status).toBe(404);
    expect((await get(editorKey, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await get(editorKey, "not-a-uuid")).status).toBe(404);
    const list = await call(filesRoute.GET, { url: "/api/v1/files?limit=200", token: otherKey });
    expect(list.json.data.map((f: { id: string }) => f.id)).not.toContain(up.json.id);
  });
});

describe("DELETE /api/v1/files/{id}", () => {
  it("deletes the record and the bytes (204, then 404)", async () => {
    const up = await upload(filesRoute.POST, editorKey, Buffer.from("short-lived"), "gone.txt");
    const row = await db.storedFile.findUniqueOrThrow({ where: { id: up.json.id } });
    expect((await del(editorKey, up.json.id)).status).toBe(204);
    expect((await get(editorKey, up.json.id)).status).toBe(404);
    expect((await content(editorKey, up.json.id)).status).toBe(404);
    expect(await db.fileBlob.count({ where: { key: row.storageKey } })).toBe(0);
  });

  it("answers 409 naming the case while a live case references the file, and 204 once that case is deleted", async () => {
    const png = await makePng(3, 3);
    const up = await upload(filesRoute.POST, editorKey, png, "chart.png");
    const tc = await createTestCase(
      ctx,
      suiteId,
      runnableCase({ name: "Uses the chart", files: [{ path: fileRef(up.json.id), type: "image" }] }),
    );
    const refused = await del(editorKey, up.json.id);
    expect(refused.status).toBe(409);
    expect(refused.json.error.message).toContain('"Uses the chart"');
    expect((await get(editorKey, up.json.id)).status).toBe(200);
    await deleteTestCase(ctx, tc.id);
    expect((await del(editorKey, up.json.id)).status).toBe(204);
  });
});

describe("session routes (/api/w/{workspaceId}/files)", () => {
  it("upload and list for a signed-in member with the API's contract; 401 without a session, 403 for a viewer", async () => {
    const route = await import("@/app/api/w/[workspaceId]/files/route");
    const params = { workspaceId: ctx.workspaceId };
    const url = `/api/w/${ctx.workspaceId}/files`;
    session.userId = null;
    const anonymous = await call(route.GET, { url, params });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error.code).toBe("unauthorized");

    session.userId = (await addMember(ctx.workspaceId, "editor")).user.id;
    const pdf = await makePdf(["From the case form"]);
    const up = await upload(route.POST, null, pdf, "form.pdf", { url, params });
    expect(up.status, up.text).toBe(201);
    expect(up.json).toMatchObject({ name: "form.pdf", type: "pdf", sha256: sha(pdf) });
    const list = await call(route.GET, { url: `${url}?limit=100`, params });
    expect(list.status).toBe(200);
    expect(list.json.data.map((f: { id: string }) => f.id)).toContain(up.json.id);

    session.userId = (await addMember(ctx.workspaceId, "viewer")).user.id;
    expect((await upload(route.POST, null, pdf, "form.pdf", { url, params })).status).toBe(403);
    session.userId = null;
  });
});
