/**
 * A test case's `files` against the workspace's file store: create, PATCH and import check that
 * each `file:<id>` exists and its sniffed content matches the declared type; YAML/JSON
 * import/export carry the references; the zip export bundles the bytes and imports into another
 * workspace with the references rewritten.
 */
import { beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { strFromU8, unzipSync, zipSync, strToU8 } from "fflate";
import { NextRequest } from "next/server";
import { db } from "@/lib/db";
import { fileIdOf, fileRef } from "@/lib/files/schemas";
import { loadStoredFileBytes, sha256Hex, storeFileBytes } from "@/lib/files/service";
import { MAX_IMPORT_CASES } from "@/lib/test-cases/import-export";
import * as listRoute from "@/app/api/v1/suites/[id]/test-cases/route";
import * as importRoute from "@/app/api/v1/suites/[id]/test-cases/import/route";
import * as exportRoute from "@/app/api/v1/suites/[id]/test-cases/export/route";
import * as caseRoute from "@/app/api/v1/test-cases/[id]/route";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { call } from "../helpers/api";
import { makeApiKey, makeWorkspace, makeSuite, runnableCase } from "../helpers/factories";
import { makeCsv, makePdf, makePng } from "./fixtures";

let ctx: WorkspaceContext;
let key: string;
let suiteId: string;
let pdfId: string;
let pngId: string;
let csvId: string;
let otherCtx: WorkspaceContext;
let otherKey: string;
let otherSuiteId: string;

async function store(workspaceId: string, name: string, bytes: Buffer) {
  return (await storeFileBytes(workspaceId, { name, bytes, origin: "upload" })).file;
}

beforeAll(async () => {
  ({ ctx } = await makeWorkspace("owner"));
  key = await makeApiKey(ctx.workspaceId, "editor");
  suiteId = (await makeSuite(ctx.workspaceId)).id;
  pdfId = (await store(ctx.workspaceId, "contract.pdf", await makePdf())).id;
  pngId = (await store(ctx.workspaceId, "report.png", await makePng(20, 10))).id;
  csvId = (await store(ctx.workspaceId, "scores.csv", makeCsv())).id;
  const other = await makeWorkspace("owner");
  otherCtx = other.ctx;
  otherKey = await makeApiKey(other.workspace.id, "editor");
  otherSuiteId = (await makeSuite(other.workspace.id)).id;
});

const create = (body: unknown, token = key, id = suiteId) =>
  call(listRoute.POST, { url: `/api/v1/suites/${id}/test-cases`, method: "POST", token, body, params: { id } });
const patch = (id: string, body: unknown) =>
  call(caseRoute.PATCH, { url: `/api/v1/test-cases/${id}`, method: "PATCH", token: key, body, params: { id } });
const importDoc = (rawBody: string, contentType: string, qs = "", id = suiteId, token = key) =>
  call(importRoute.POST, {
    url: `/api/v1/suites/${id}/test-cases/import${qs}`,
    method: "POST",
    token,
    rawBody,
    contentType,
    params: { id },
  });

async function exportZip(id = suiteId) {
  const req = new NextRequest(new URL(`/api/v1/suites/${id}/test-cases/export?format=zip`, "http://localhost"), {
    headers: { authorization: `Bearer ${key}` },
  });
  const res = await exportRoute.GET(req, { params: Promise.resolve({ id }) });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function importZip(zip: Uint8Array, id: string, token: string, qs = "") {
  const req = new NextRequest(new URL(`/api/v1/suites/${id}/test-cases/import${qs}`, "http://localhost"), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/zip" },
    body: new Uint8Array(zip),
  });
  const res = await importRoute.POST(req, { params: Promise.resolve({ id }) });
  return { status: res.status, json: await res.json() };
}

describe("files on create and PATCH", () => {
  it("accepts stored files whose content matches the declared type (text and csv interchangeable)", async () => {
    const files = [
      { path: fileRef(pdfId), type: "pdf", pages: [3, 1], description: "The contract" },
      { path: fileRef(pngId), type: "image" },
      { path: fileRef(csvId), type: "text" },
      { url: "https://example.com/a.xlsx", type: "excel", sheet: "Q1", range: "a1:c3" },
    ];
    const res = await create(runnableCase({ files }));
    expect(res.status, res.text).toBe(201);
    expect(res.json.files).toEqual(
      [
        { path: fileRef(pdfId), type: "pdf", pages: [1, 3], description: "The contract" },
        { path: fileRef(pngId), type: "image" },
        { path: fileRef(csvId), type: "text" },
        { url: "https://example.com/a.xlsx", type: "excel", sheet: "Q1", range: "A1:C3", cache: true },
      ].map(({ cache: _c, ...f }) => f),
    );
  });

  it("refuses a file that is not in the workspace at files.N.path (also another workspace's file)", async () => {
    const foreign = await store(otherCtx.workspaceId, "theirs.pdf", await makePdf(["theirs"]));
    for (const path of [fileRef("00000000-0000-4000-8000-000000000000"), fileRef(foreign.id)]) {
      const res = await create(runnableCase({ files: [{ path, type: "pdf" }] }));
      expect(res.status).toBe(400);
      expect(res.json.error.issues).toEqual([{ path: "files.0.path", message: expect.stringContaining("No file") }]);
    }
  });

  it("refuses a type that does not match the content at files.N.type, naming what the file is", async () => {
    const res = await create(
      runnableCase({
        files: [
          { path: fileRef(pdfId), type: "pdf" },
          { path: fileRef(pngId), type: "pdf" },
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.json.error.issues).toEqual([{ path: "files.1.type", message: 'file "report.png" is image content (image/png), not pdf' }]);
  });

  it("checks the merged case on PATCH", async () => {
    const tc = await create(runnableCase({ files: [{ path: fileRef(pdfId), type: "pdf" }] }));
    const missing = await patch(tc.json.id, { files: [{ path: fileRef("00000000-0000-4000-8000-000000000001"), type: "pdf" }] });
    expect(missing.status).toBe(400);
    expect(missing.json.error.issues[0].path).toBe("files.0.path");
    const mismatch = await patch(tc.json.id, { files: [{ path: fileRef(pngId), type: "word" }] });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json.error.issues[0].path).toBe("files.0.type");
    const ok = await patch(tc.json.id, { files: [{ path: fileRef(pngId), type: "image" }] });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.files).toEqual([{ path: fileRef(pngId), type: "image" }]);
    const cleared = await patch(tc.json.id, { files: [] });
    expect(cleared.json.files).toBeNull();
  });

  it("applies the spec's shape rules: at most 10 files, exactly one of path/url, positive pages", async () => {
    const eleven = Array.from({ length: 11 }, () => ({ path: fileRef(pdfId), type: "pdf" }));
    const tooMany = await create(runnableCase({ files: eleven }));
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.issues[0]).toMatchObject({ path: "files", message: expect.stringContaining("10") });
    const both = await create(runnableCase({ files: [{ path: fileRef(pdfId), url: "https://example.com/x.pdf", type: "pdf" }] }));
    expect(both.status).toBe(400);
    expect(both.json.error.issues[0].path).toBe("files.0.path");
    const neither = await create(runnableCase({ files: [{ type: "pdf" }] }));
    expect(neither.status).toBe(400);
    expect(neither.json.error.issues[0].path).toBe("files.0.path");
    const zeroPage = await create(runnableCase({ files: [{ path: fileRef(pdfId), type: "pdf", pages: [0] }] }));
    expect(zeroPage.status).toBe(400);
    expect(zeroPage.json.error.issues[0].path).toBe("files.0.pages.0");
  });
});

describe("YAML/JSON import and export", () => {
  it("round-trips files through both formats", async () => {
    const suite = (await makeSuite(ctx.workspaceId)).id;
    const files = [
      { path: fileRef(pdfId), type: "pdf", pages: [2], description: "Page two" },
      { url: "https://example.com/data.csv", type: "csv", cache: false },
    ];
    expect((await create(runnableCase({ name: "with files", files }), key, suite)).status).toBe(201);
    for (const format of ["yaml", "json"] as const) {
      const res = await call(exportRoute.GET, {
        url: `/api/v1/suites/${suite}/test-cases/export?format=${format}`,
        token: key,
        params: { id: suite },
      });
      const docs = format === "yaml" ? YAML.parse(res.text) : res.json;
      expect(docs[0].files).toEqual(files);
      const target = (await makeSuite(ctx.workspaceId)).id;
      const imported = await importDoc(res.text, format === "yaml" ? "application/yaml" : "application/json", "", target);
      expect(imported.status, imported.text).toBe(201);
      const back = await db.testCase.findFirstOrThrow({ where: { suiteId: target }, select: { files: true } });
      expect(back.files).toEqual([
        { path: fileRef(pdfId), type: "pdf", pages: [2], description: "Page two" },
        { url: "https://example.com/data.csv", type: "csv", cache: false },
      ]);
    }
  });

  it("checks imported files against the store: all-or-nothing, or valid_only skipping the bad cases", async () => {
    const target = (await makeSuite(ctx.workspaceId)).id;
    const doc = JSON.stringify([
      runnableCase({ files: [{ path: fileRef(pdfId), type: "pdf" }] }),
      runnableCase({ files: [{ path: fileRef(pngId), type: "excel" }] }),
      runnableCase({ files: [{ path: fileRef("00000000-0000-4000-8000-000000000002"), type: "pdf" }] }),
    ]);
    const refused = await importDoc(doc, "application/json", "", target);
    expect(refused.status).toBe(400);
    expect(refused.json.error.issues.map((i: { path: string }) => i.path)).toEqual(["1.files.0.type", "2.files.0.path"]);
    expect(await db.testCase.count({ where: { suiteId: target } })).toBe(0);
    const partial = await importDoc(doc, "application/json", "?valid_only=true", target);
    expect(partial.status).toBe(201);
    expect(partial.json).toMatchObject({ imported: 1, skipped: 2 });
    expect(MAX_IMPORT_CASES).toBeGreaterThan(0);
  });
});

describe("zip export and import", () => {
  it("bundles the files and imports into another workspace with the references rewritten to its own files", async () => {
    const suite = (await makeSuite(ctx.workspaceId, "Bundle me")).id;
    // Two different files with the same name, one file used twice.
    const twin = await store(ctx.workspaceId, "report.png", await makePng(4, 4));
    await create(
      runnableCase({
        name: "first",
        files: [
          { path: fileRef(pngId), type: "image" },
          { path: fileRef(pdfId), type: "pdf", pages: [1] },
        ],
      }),
      key,
      suite,
    );
    await create(
      runnableCase({
        name: "second",
        files: [
          { path: fileRef(twin.id), type: "image" },
          { path: fileRef(pdfId), type: "pdf" },
        ],
      }),
      key,
      suite,
    );
    await create(runnableCase({ name: "no files" }), key, suite);

    const zip = await exportZip(suite);
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    expect(zip.headers.get("content-disposition")).toBe('attachment; filename="bundle-me-test-cases.zip"');
    const entries = unzipSync(zip.bytes);
    expect(Object.keys(entries).sort()).toEqual(
      // The first case's report.png keeps its name; the second case's namesake gets its id's prefix.
      ["files/contract.pdf", "files/report.png", "files/report-" + twin.id.slice(0, 8) + ".png", "test-cases.yaml"].sort(),
    );
    const docs = YAML.parse(strFromU8(entries["test-cases.yaml"]!));
    expect(docs.map((d: { name: string }) => d.name)).toEqual(["first", "second", "no files"]);
    const paths = docs.flatMap((d: { files?: { path: string }[] }) => (d.files ?? []).map((f) => f.path));
    // Every bundled file is referenced by a case (at least once), and every reference is bundled.
    expect(new Set(paths)).toEqual(new Set(Object.keys(entries).filter((k) => k.startsWith("files/"))));
    for (const p of paths) expect(entries[p], p).toBeDefined();

    const imported = await importZip(zip.bytes, otherSuiteId, otherKey);
    expect(imported.status, JSON.stringify(imported.json)).toBe(201);
    expect(imported.json).toMatchObject({ imported: 3, skipped: 0 });
    const cases = await db.testCase.findMany({
      where: { suiteId: otherSuiteId },
      orderBy: { sortOrder: "asc" },
      select: { name: true, files: true },
    });
    const first = cases.find((c) => c.name === "first")!.files as { path: string; type: string; pages?: number[] }[];
    expect(first[1]).toMatchObject({ type: "pdf", pages: [1] });
    for (const [i, original] of [pngId, pdfId].entries()) {
      const newId = fileIdOf(first[i]!.path)!;
      expect(newId).not.toBe(original);
      const copy = await loadStoredFileBytes(otherCtx.workspaceId, newId);
      const source = await loadStoredFileBytes(ctx.workspaceId, original);
      expect(copy.bytes.equals(source.bytes)).toBe(true);
      expect(copy.file.sha256).toBe(sha256Hex(source.bytes));
    }
    // The pdf shared by both cases is stored once in the new workspace; importing again reuses the files.
    expect(
      await db.storedFile.count({
        where: { workspaceId: otherCtx.workspaceId, sha256: (await loadStoredFileBytes(ctx.workspaceId, pdfId)).file.sha256 },
      }),
    ).toBe(1);
    const before = await db.storedFile.count({ where: { workspaceId: otherCtx.workspaceId } });
    expect((await importZip(zip.bytes, otherSuiteId, otherKey)).status).toBe(201);
    expect(await db.storedFile.count({ where: { workspaceId: otherCtx.workspaceId } })).toBe(before);
  });

  it("refuses a zip whose document names a missing entry or the wrong type, storing nothing; valid_only imports the rest", async () => {
    const target = (await makeSuite(otherCtx.workspaceId)).id;
    const png = await makePng(9, 9);
    const doc = YAML.stringify([
      runnableCase({ name: "ok", files: [{ path: "files/pic.png", type: "image" }] }),
      runnableCase({ name: "missing", files: [{ path: "files/nope.pdf", type: "pdf" }] }),
      runnableCase({ name: "mismatch", files: [{ path: "./files/pic.png", type: "pdf" }] }),
    ]);
    const zip = zipSync({ "test-cases.yaml": strToU8(doc), "files/pic.png": png });
    const filesBefore = await db.storedFile.count({ where: { workspaceId: otherCtx.workspaceId } });
    const refused = await importZip(zip, target, otherKey);
    expect(refused.status).toBe(400);
    expect(refused.json.error.issues).toEqual([
      { path: "1.files.0.path", message: "files/nope.pdf is not in the zip" },
      { path: "2.files.0.type", message: 'file "pic.png" is image content (image/png), not pdf' },
    ]);
    expect(await db.storedFile.count({ where: { workspaceId: otherCtx.workspaceId } })).toBe(filesBefore);
    const partial = await importZip(zip, target, otherKey, "?valid_only=true");
    expect(partial.status).toBe(201);
    expect(partial.json).toMatchObject({ imported: 1, skipped: 2 });
    expect(await db.storedFile.count({ where: { workspaceId: otherCtx.workspaceId } })).toBe(filesBefore + 1);
  });

  it("answers 400 for something that is not such a zip", async () => {
    const target = (await makeSuite(otherCtx.workspaceId)).id;
    const notZip = await importZip(strToU8("PK but not really"), target, otherKey);
    expect(notZip.status).toBe(400);
    expect(notZip.json.error.message).toMatch(/zip could not be read/);
    const noDoc = await importZip(zipSync({ "readme.txt": strToU8("hi") }), target, otherKey);
    expect(noDoc.status).toBe(400);
    expect(noDoc.json.error.message).toContain("test-cases.yaml");
  });
});
