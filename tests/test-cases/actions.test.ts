import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { db } from "@/lib/db";
import { RUNNABLE_MESSAGE } from "@/lib/test-cases/schemas";
import { addMember, makeWorkspace, makeSuite, runnableCase } from "../helpers/factories";

// The session is the only thing faked: Auth.js's `auth()` answers with the signed-in user
// `session.userId`; the real action context (lib/auth/context.ts) turns it into a membership and
// checks the role against the database.
const session = vi.hoisted(() => ({ userId: "" }));
const revalidatePath = vi.hoisted(() => vi.fn());
vi.mock("next/cache", () => ({ revalidatePath }));
vi.mock("@/lib/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));

const actions = await import("@/lib/test-cases/actions");
const { POST: sessionImport } = await import("@/app/api/w/[workspaceId]/suites/[suiteId]/test-cases/import/route");

let workspaceId: string;
let editorId: string;
let suiteId: string;

beforeAll(async () => {
  const ws = await makeWorkspace("editor");
  workspaceId = ws.workspace.id;
  editorId = ws.user.id;
  suiteId = (await makeSuite(workspaceId)).id;
});

beforeEach(() => {
  session.userId = editorId;
  revalidatePath.mockClear();
});

const suitePath = () => `/w/${workspaceId}/suites/${suiteId}`;

function ok<T>(r: { ok: true; data: T } | { ok: false; error: string }): T {
  if (!r.ok) throw new Error(`action failed: ${r.error}`);
  return r.data;
}

describe("test case server actions", () => {
  it("create → update → status → duplicate → delete → restore, revalidating the suite page", async () => {
    const created = ok(
      await actions.createTestCaseAction(workspaceId, {
        suite_id: suiteId,
        test_case: runnableCase({ name: "via action", status: "draft" }),
      }),
    );
    expect(created).toMatchObject({ name: "via action", suite_id: suiteId, status: "draft" });
    expect(revalidatePath).toHaveBeenLastCalledWith(suitePath());

    expect(ok(await actions.updateTestCaseAction(workspaceId, { id: created.id, patch: { tags: ["normal"] } })).tags).toEqual(["normal"]);
    expect(ok(await actions.setTestCaseStatusAction(workspaceId, { id: created.id, status: "archived" })).status).toBe("archived");
    expect(ok(await actions.setTestCaseStatusAction(workspaceId, { id: created.id, status: "restore" })).status).toBe("active");
    const copy = ok(await actions.duplicateTestCaseAction(workspaceId, { id: created.id }));
    expect(copy.name).toBe("via action (copy)");
    expect(ok(await actions.deleteTestCaseAction(workspaceId, { id: copy.id }))).toBeNull();
    expect(ok(await actions.restoreTestCaseAction(workspaceId, { id: copy.id })).id).toBe(copy.id);
    expect(revalidatePath).toHaveBeenCalledTimes(7);
    for (const [path] of revalidatePath.mock.calls) expect(path).toBe(suitePath());
  });

  it("returns the service's issues with paths relative to the case", async () => {
    const r = await actions.createTestCaseAction(workspaceId, {
      suite_id: suiteId,
      test_case: { name: "", status: "draft", checks: [{ type: "semantic_similarity", expected_answer: "a", threshold: 2 }] },
    });
    expect(r).toEqual({
      ok: false,
      error: "Please fix the highlighted fields",
      issues: [
        { path: "name", message: "Name is required" },
        { path: "checks.0.threshold", message: "Threshold must be between 0 and 1" },
      ],
    });
    const bad = await actions.createTestCaseAction(workspaceId, { suite_id: "nope", test_case: runnableCase() });
    expect(bad).toMatchObject({ ok: false, issues: [{ path: "suite_id" }] });
    expect(revalidatePath).not.toHaveBeenCalled();
  });

  it("bulk status, bulk tags and reorder", async () => {
    const suite = await makeSuite(workspaceId);
    const a = ok(await actions.createTestCaseAction(workspaceId, { suite_id: suite.id, test_case: runnableCase({ status: "draft" }) }));
    const b = ok(await actions.createTestCaseAction(workspaceId, { suite_id: suite.id, test_case: { name: "shell", status: "draft" } }));
    const status = ok(await actions.bulkStatusAction(workspaceId, { suite_id: suite.id, ids: [a.id, b.id], status: "active" }));
    expect(status).toEqual({ updated: 1, skipped: [{ id: b.id, reason: RUNNABLE_MESSAGE }] });
    expect(
      ok(await actions.bulkTagsAction(workspaceId, { suite_id: suite.id, ids: [a.id, b.id], add: ["edge-case"], remove: [] })),
    ).toEqual({ updated: 2 });
    expect(ok(await actions.reorderTestCasesAction(workspaceId, { suite_id: suite.id, ids: [b.id, a.id] }))).toBeNull();
    const order = await db.testCase.findMany({ where: { suiteId: suite.id }, orderBy: { sortOrder: "asc" }, select: { id: true } });
    expect(order.map((r) => r.id)).toEqual([b.id, a.id]);
    expect(revalidatePath).toHaveBeenLastCalledWith(`/w/${workspaceId}/suites/${suite.id}`);
  });

  it("imports through the dialog's session route (dry run, refusal, valid only) and exports documents", async () => {
    const suite = await makeSuite(workspaceId);
    const yaml = "- name: one\n  initial_message: hi\n- name: two\n  max_turns: 0\n";
    const post = async (query: string, body: string, headers: Record<string, string> = {}) => {
      const req = new NextRequest(`http://localhost/api/w/${workspaceId}/suites/${suite.id}/test-cases/import?${query}`, {
        method: "POST",
        headers: { "content-type": "application/yaml", ...headers },
        body,
      });
      const res = await sessionImport(req, { params: Promise.resolve({ workspaceId, suiteId: suite.id }) });
      return { status: res.status, json: await res.json() };
    };
    const preview = await post("dry_run=true", yaml);
    expect(preview.status).toBe(200);
    expect(preview.json).toMatchObject({ dry_run: true, imported: 0, would_import: 1, skipped: 1 });
    expect(preview.json.test_cases.map((c: { name: string }) => c.name)).toEqual(["one"]);
    const refused = await post("", yaml);
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toBe("1 of 2 test cases are invalid; nothing was imported");
    expect(refused.json.error.issues.map((i: { path: string }) => i.path)).toEqual(["1.max_turns", "1.status"]);
    expect(await db.testCase.count({ where: { suiteId: suite.id } })).toBe(0);
    const partial = await post("valid_only=true", yaml);
    expect(partial.status).toBe(201);
    expect(partial.json.imported).toBe(1);
    // Another site's page cannot import with the member's cookie.
    expect((await post("", yaml, { origin: "https://evil.example" })).status).toBe(403);
    session.userId = (await addMember(workspaceId, "viewer")).user.id;
    expect((await post("", yaml)).status).toBe(403);
    session.userId = editorId;

    const file = ok(await actions.exportTestCasesAction(workspaceId, { suite_id: suite.id, format: "json" }));
    expect(JSON.parse(file.body)).toHaveLength(1);
    expect(file.filename).toMatch(/\.json$/);
  });

  it("enforces roles and workspace membership", async () => {
    const { user: viewer } = await addMember(workspaceId, "viewer");
    session.userId = viewer.id;
    const denied = await actions.createTestCaseAction(workspaceId, { suite_id: suiteId, test_case: runnableCase() });
    expect(denied).toMatchObject({ ok: false, error: "Your role does not allow this" });
    expect((await actions.exportTestCasesAction(workspaceId, { suite_id: suiteId, format: "yaml" })).ok).toBe(true);

    const stranger = await makeWorkspace("owner");
    session.userId = stranger.user.id;
    const hidden = await actions.exportTestCasesAction(workspaceId, { suite_id: suiteId, format: "yaml" });
    expect(hidden).toMatchObject({ ok: false, error: "Workspace not found" });
    const foreignSuite = await actions.createTestCaseAction(stranger.workspace.id, { suite_id: suiteId, test_case: runnableCase() });
    expect(foreignSuite).toMatchObject({ ok: false, error: "Suite not found" });

    session.userId = "";
    const signedOut = await actions.exportTestCasesAction(workspaceId, { suite_id: suiteId, format: "yaml" });
    expect(signedOut).toMatchObject({ ok: false, error: "Authentication required" });
  });
});
