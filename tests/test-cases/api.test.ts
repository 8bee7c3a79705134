import { beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { db } from "@/lib/db";
import { hashToken } from "@/lib/crypto";
import { createTestCase, duplicateTestCase, type TestCaseDto } from "@/lib/test-cases/service";
import { RUNNABLE_MESSAGE } from "@/lib/test-cases/schemas";
import * as listRoute from "@/app/api/v1/suites/[id]/test-cases/route";
import * as importRoute from "@/app/api/v1/suites/[id]/test-cases/import/route";
import * as exportRoute from "@/app/api/v1/suites/[id]/test-cases/export/route";
import * as caseRoute from "@/app/api/v1/test-cases/[id]/route";
import * as restoreRoute from "@/app/api/v1/test-cases/[id]/restore/route";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { CASE_FIELDS, makeApiKey, makeWorkspace, makeSuite, makeWorkspaceWithSuiteAndKeys, runnableCase } from "../helpers/factories";
import { call } from "../helpers/api";

let ctx: WorkspaceContext;
let suiteId: string;
let editorKey: string;
let viewerKey: string;
let otherKey: string;
let otherSuiteId: string;
let otherCase: TestCaseDto;

beforeAll(async () => {
  ({
    ctx,
    suiteId,
    keys: { editor: editorKey, viewer: viewerKey },
  } = await makeWorkspaceWithSuiteAndKeys(["editor", "viewer"]));
  const other = await makeWorkspaceWithSuiteAndKeys(["admin"]);
  otherKey = other.keys.admin;
  otherSuiteId = other.suiteId;
  otherCase = await createTestCase(other.ctx, otherSuiteId, runnableCase());
});

const casesUrl = (id: string, qs = "") => `/api/v1/suites/${id}/test-cases${qs}`;
const list = (token: string | null, qs = "", id = suiteId) => call(listRoute.GET, { url: casesUrl(id, qs), token, params: { id } });
const create = (token: string, body: unknown, id = suiteId) =>
  call(listRoute.POST, { url: casesUrl(id), method: "POST", token, body, params: { id } });
const importDoc = (token: string, rawBody: string, contentType: string, qs = "", id = suiteId) =>
  call(importRoute.POST, { url: casesUrl(id, `/import${qs}`), method: "POST", token, rawBody, contentType, params: { id } });
const exportDoc = (token: string, qs = "", id = suiteId) =>
  call(exportRoute.GET, { url: casesUrl(id, `/export${qs}`), token, params: { id } });
/** An Assay-format import's answer when it took all `n` of its cases and had nothing to report. */
const importedAll = (n: number) => ({
  format: "assay",
  dry_run: false,
  imported: n,
  would_import: n,
  skipped: 0,
  errors: [],
  items: [],
  notes: [],
});
const caseCall = (method: "GET" | "PATCH" | "DELETE", token: string, id: string, body?: unknown) =>
  call(caseRoute[method], { url: `/api/v1/test-cases/${id}`, method, token, body, params: { id } });

describe("authentication and roles", () => {
  it("answers 401 without a key, with a bad key and with a revoked key", async () => {
    for (const token of [null, "not-a-real-key-but-long-enough-0123456789"]) {
      const res = await list(token);
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe("unauthorized");
    }
    const revoked = await makeApiKey(ctx.workspaceId, "admin");
    await db.apiKey.update({ where: { keyHash: hashToken(revoked) }, data: { revokedAt: new Date() } });
    expect((await list(revoked)).status).toBe(401);
  });

  it("lets viewer keys read but not write (403)", async () => {
    const c = await createTestCase(ctx, suiteId, runnableCase({ name: "readable" }));
    expect((await list(viewerKey)).status).toBe(200);
    expect((await caseCall("GET", viewerKey, c.id)).status).toBe(200);
    expect((await exportDoc(viewerKey)).status).toBe(200);
    const writes = [
      await create(viewerKey, runnableCase()),
      await caseCall("PATCH", viewerKey, c.id, { name: "x" }),
      await caseCall("DELETE", viewerKey, c.id),
      await importDoc(viewerKey, JSON.stringify([runnableCase()]), "application/json"),
      await call(restoreRoute.POST, { method: "POST", token: viewerKey, params: { id: c.id } }),
    ];
    for (const res of writes) {
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe("forbidden");
    }
    expect((await caseCall("GET", editorKey, c.id)).json.name).toBe("readable");
  });

  it("answers 404 for another workspace's suite and case, deleted ones and malformed ids", async () => {
    const responses = [
      await list(editorKey, "", otherSuiteId),
      await create(editorKey, runnableCase(), otherSuiteId),
      await importDoc(editorKey, JSON.stringify([runnableCase()]), "application/json", "", otherSuiteId),
      await exportDoc(editorKey, "", otherSuiteId),
      await caseCall("GET", editorKey, otherCase.id),
      await caseCall("PATCH", editorKey, otherCase.id, { name: "hijacked" }),
      await caseCall("DELETE", editorKey, otherCase.id),
      await caseCall("GET", editorKey, "123"),
      await list(editorKey, "", "nope"),
    ];
    for (const res of responses) {
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe("not_found");
    }
    expect((await caseCall("GET", otherKey, otherCase.id)).json.name).toBe(otherCase.name);
    expect(await db.testCase.count({ where: { suiteId: otherSuiteId } })).toBe(1);
  });
});

describe("cases", () => {
  it("creates a case (201), reads, patches, soft-deletes (204) and restores it", async () => {
    const created = await create(editorKey, runnableCase({ name: "api case", tags: ["normal"], max_turns: 3 }));
    expect(created.status).toBe(201);
    const body = created.json as TestCaseDto;
    expect(Object.keys(body)).toEqual(["id", "suite_id", ...CASE_FIELDS, "sort_order", "source", "created_at", "updated_at"]);
    expect(body).toMatchObject({ suite_id: suiteId, name: "api case", max_turns: 3, status: "active" });

    const patched = await caseCall("PATCH", editorKey, body.id, { description: "via API", max_turns: null });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ description: "via API", max_turns: null, tags: ["normal"] });

    expect((await caseCall("DELETE", editorKey, body.id)).status).toBe(204);
    expect((await caseCall("GET", editorKey, body.id)).status).toBe(404);
    const restored = await call(restoreRoute.POST, { method: "POST", token: editorKey, params: { id: body.id } });
    expect(restored.status).toBe(200);
    expect((await caseCall("GET", editorKey, body.id)).json.description).toBe("via API");
  });

  it("answers 400 with issue paths relative to the case, and 409 for archived cases", async () => {
    const bad = await create(editorKey, {
      name: "x",
      initial_message: "hi",
      checks: [{ type: "semantic_similarity", expected_answer: "a", threshold: 7 }],
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({
      code: "invalid_input",
      issues: [{ path: "checks.0.threshold", message: "Threshold must be between 0 and 1" }],
    });
    const draftOnly = await create(editorKey, { name: "no opener", status: "active" });
    expect(draftOnly.json.error.issues).toEqual([{ path: "status", message: RUNNABLE_MESSAGE }]);
    expect(
      (
        await call(listRoute.POST, {
          method: "POST",
          token: editorKey,
          rawBody: "{oops",
          contentType: "application/json",
          params: { id: suiteId },
        })
      ).status,
    ).toBe(400);

    const archived = await createTestCase(ctx, suiteId, runnableCase({ status: "archived" }));
    const conflict = await caseCall("PATCH", editorKey, archived.id, { name: "edit" });
    expect(conflict.status).toBe(409);
    expect(conflict.json.error.message).toBe("Archived test cases are read-only; restore it first");
    expect((await caseCall("PATCH", editorKey, archived.id, { status: "active" })).json.status).toBe("active");
  });
});

describe("list", () => {
  it("filters with tag (repeated or comma list), tag_match, status, difficulty and q, and pages with a cursor", async () => {
    const suite = (await makeSuite(ctx.workspaceId)).id;
    await createTestCase(ctx, suite, runnableCase({ name: "alpha", tags: ["x", "y"], difficulty: "hard" }));
    await createTestCase(ctx, suite, runnableCase({ name: "beta", tags: ["x"], status: "draft" }));
    await createTestCase(ctx, suite, runnableCase({ name: "gamma", tags: ["y"], initial_message: "needle in here" }));
    const names = async (qs: string) => {
      const res = await list(editorKey, qs, suite);
      expect(res.status).toBe(200);
      return (res.json.data as TestCaseDto[]).map((c) => c.name);
    };
    expect(await names("?tag=x&tag=y")).toEqual(["alpha", "beta", "gamma"]);
    expect(await names("?tag=x&tag=y&tag_match=all")).toEqual(["alpha"]);
    expect(await names("?tag=x,y&tag_match=all")).toEqual(["alpha"]);
    expect(await names("?status=draft")).toEqual(["beta"]);
    expect(await names("?difficulty=hard")).toEqual(["alpha"]);
    expect(await names("?q=NEEDLE")).toEqual(["gamma"]);

    const first = await list(editorKey, "?limit=2", suite);
    expect(Object.keys(first.json)).toEqual(["data", "next_cursor"]);
    expect(first.json.data).toHaveLength(2);
    const second = await list(editorKey, `?limit=2&cursor=${first.json.next_cursor}`, suite);
    expect((second.json.data as TestCaseDto[]).map((c) => c.name)).toEqual(["gamma"]);
    expect(second.json.next_cursor).toBeNull();

    const invalid = await list(editorKey, "?status=bogus&limit=0", suite);
    expect(invalid.status).toBe(400);
    expect((invalid.json.error.issues as { path: string }[]).map((i) => i.path).sort()).toEqual(["limit", "status"]);
    expect((await list(editorKey, "?cursor=garbage", suite)).status).toBe(400);
  });
});

describe("import and export", () => {
  it("imports a JSON array and YAML (application/yaml and text/yaml) → 201", async () => {
    const suite = (await makeSuite(ctx.workspaceId)).id;
    const json = await importDoc(
      editorKey,
      JSON.stringify([runnableCase({ name: "j1" }), runnableCase({ name: "j2" })]),
      "application/json",
      "",
      suite,
    );
    expect(json.status).toBe(201);
    expect(json.json).toEqual(importedAll(2));
    const yaml = "- name: y1\n  initial_message: hi\n  tags: [red-team]\n";
    expect((await importDoc(editorKey, yaml, "application/yaml", "", suite)).json).toEqual(importedAll(1));
    expect(
      (await importDoc(editorKey, `test_cases:\n${yaml.replace(/^/gm, "  ")}`, "text/yaml; charset=utf-8", "", suite)).json.imported,
    ).toBe(1);
    const names = (await list(editorKey, "", suite)).json.data.map((c: TestCaseDto) => c.name);
    expect(names).toEqual(["j1", "j2", "y1", "y1"]);
  });

  it("refuses invalid documents all-or-nothing (400 with every issue) unless valid_only=true", async () => {
    const suite = (await makeSuite(ctx.workspaceId)).id;
    const doc = JSON.stringify({
      test_cases: [runnableCase({ name: "good" }), { name: "" }, runnableCase({ max_turns: 0, difficulty: "extreme" })],
    });
    const refused = await importDoc(editorKey, doc, "application/json", "", suite);
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toBe("2 of 3 test cases are invalid; nothing was imported");
    expect(refused.json.error.issues).toEqual([
      { path: "1.name", message: "Name is required" },
      { path: "1.status", message: RUNNABLE_MESSAGE },
      { path: "2.difficulty", message: "Difficulty must be normal or hard" },
      { path: "2.max_turns", message: "Max turns must be at least 1" },
    ]);
    expect(await db.testCase.count({ where: { suiteId: suite } })).toBe(0);

    const partial = await importDoc(editorKey, doc, "application/json", "?valid_only=true", suite);
    expect(partial.status).toBe(201);
    expect(partial.json).toMatchObject({ imported: 1, skipped: 2 });
    expect(partial.json.errors).toHaveLength(4);
    expect(partial.json.errors[0]).toEqual({ index: 1, path: "name", message: "Name is required" });
  });

  it("answers 400 for YAML and JSON syntax errors", async () => {
    const yaml = await importDoc(editorKey, "- name: a\n  tags: [x\n", "application/yaml");
    expect(yaml.status).toBe(400);
    expect(yaml.json.error.issues[0].message).toMatch(/^Line \d+, column \d+/);
    const json = await importDoc(editorKey, '[{"name": "a"', "application/json");
    expect(json.status).toBe(400);
    expect(json.json.error.code).toBe("invalid_input");
    expect((await importDoc(editorKey, "", "application/json")).status).toBe(400);
    expect((await importDoc(editorKey, '{"name": "a"}', "application/json")).status).toBe(400);
  });

  it("exports YAML or JSON as an attachment", async () => {
    const suite = await makeSuite(ctx.workspaceId, "Export Me");
    await createTestCase(ctx, suite.id, runnableCase({ name: "exported", user_context: { a: { b: [1, "two"] } } }));
    const yaml = await exportDoc(viewerKey, "?format=yaml", suite.id);
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get("content-type")).toBe("application/yaml; charset=utf-8");
    expect(yaml.headers.get("content-disposition")).toBe('attachment; filename="export-me-test-cases.yaml"');
    expect(YAML.parse(yaml.text)[0]).toMatchObject({ name: "exported", user_context: { a: { b: [1, "two"] } } });
    const json = await exportDoc(viewerKey, "?format=json", suite.id);
    expect(json.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(json.headers.get("content-disposition")).toBe('attachment; filename="export-me-test-cases.json"');
    expect(json.json[0].name).toBe("exported");
    expect((await exportDoc(viewerKey, "", suite.id)).headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect((await exportDoc(viewerKey, "?format=xml", suite.id)).status).toBe(400);

    const back = await importDoc(editorKey, yaml.text, "application/yaml", "", suite.id);
    expect(back.json).toEqual(importedAll(1));
  });
});

describe("max_turns against the workspace's safety cap", () => {
  it("refuses more turns than the cap at every save, naming the cap; the cap itself is accepted", async () => {
    const { ctx: own } = await makeWorkspace("owner");
    await db.workspace.update({ where: { id: own.workspaceId }, data: { maxTurnsCap: 12 } });
    const ownSuite = (await makeSuite(own.workspaceId)).id;
    const key = await makeApiKey(own.workspaceId, "editor");
    const capMessage = expect.stringMatching(/^Max turns is at most 12, this workspace's safety cap/);

    const over = await create(key, runnableCase({ max_turns: 13 }), ownSuite);
    expect(over.status).toBe(400);
    expect(over.json.error.issues).toEqual([{ path: "max_turns", message: capMessage }]);
    const atCap = await create(key, runnableCase({ max_turns: 12 }), ownSuite);
    expect(atCap.status).toBe(201);

    const patched = await caseCall("PATCH", key, atCap.json.id, { max_turns: 100 });
    expect(patched.status).toBe(400);
    expect(patched.json.error.issues).toEqual([{ path: "max_turns", message: capMessage }]);

    const imported = await importDoc(
      key,
      JSON.stringify([runnableCase({ name: "ok" }), runnableCase({ max_turns: 40 })]),
      "application/json",
      "",
      ownSuite,
    );
    expect(imported.status).toBe(400);
    expect(imported.json.error.issues).toEqual([{ path: "1.max_turns", message: capMessage }]);

    // Above the highest cap any workspace can set, the schema refuses it outright.
    const huge = await create(key, runnableCase({ max_turns: 1000 }), ownSuite);
    expect(huge.json.error.issues).toEqual([{ path: "max_turns", message: "Max turns must be at most 200" }]);

    // A case saved under a higher cap is refused when copied after the cap was lowered.
    await db.workspace.update({ where: { id: own.workspaceId }, data: { maxTurnsCap: 5 } });
    await expect(duplicateTestCase(own, atCap.json.id)).rejects.toMatchObject({
      issues: [{ path: "max_turns", message: expect.stringMatching(/^Max turns is at most 5,/) }],
    });
    expect((await list(key, "", ownSuite)).json.data).toHaveLength(1);
  });
});
