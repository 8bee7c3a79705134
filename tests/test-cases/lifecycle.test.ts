import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import {
  ARCHIVED_READ_ONLY,
  createTestCase,
  deleteTestCase,
  duplicateTestCase,
  getTestCase,
  restoreTestCase,
  setTestCaseStatus,
  updateTestCase,
} from "@/lib/test-cases/service";
import { RUNNABLE_MESSAGE } from "@/lib/test-cases/schemas";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { addMember, makeWorkspace, issuesOf, makeSuite, rejection, runnableCase } from "../helpers/factories";

let ctx: WorkspaceContext;
let suiteId: string;

beforeEach(async () => {
  ({ ctx } = await makeWorkspace("editor"));
  suiteId = (await makeSuite(ctx.workspaceId)).id;
});

const persona = { type: "frustrated-user", description: "Waited two weeks", instructions: "Be curt; demand a refund" };

describe("lifecycle", () => {
  it("activates, archives, goes back to draft and restores", async () => {
    const c = await createTestCase(ctx, suiteId, runnableCase({ status: "draft" }));
    expect((await setTestCaseStatus(ctx, c.id, "active")).status).toBe("active");
    expect((await setTestCaseStatus(ctx, c.id, "draft")).status).toBe("draft");
    expect((await setTestCaseStatus(ctx, c.id, "archived")).status).toBe("archived");
    expect((await setTestCaseStatus(ctx, c.id, "restore")).status).toBe("active");
    expect((await getTestCase(ctx, c.id)).status).toBe("active");
  });

  it("restores a case that cannot run to draft, and refuses to activate it", async () => {
    const c = await createTestCase(ctx, suiteId, { name: "shell", status: "archived" });
    const err = await rejection(setTestCaseStatus(ctx, c.id, "active"), ValidationError);
    expect(err.message).toBe(RUNNABLE_MESSAGE);
    expect(err.issues).toEqual([{ path: "status", message: RUNNABLE_MESSAGE }]);
    expect((await setTestCaseStatus(ctx, c.id, "restore")).status).toBe("draft");
    await rejection(setTestCaseStatus(ctx, c.id, "active"), ValidationError);
    expect((await getTestCase(ctx, c.id)).status).toBe("draft");
  });

  it("a persona alone makes a case runnable", async () => {
    const c = await createTestCase(ctx, suiteId, { name: "simulated", status: "draft", persona });
    expect((await setTestCaseStatus(ctx, c.id, "active")).status).toBe("active");
  });
});

describe("PATCH", () => {
  it("merges the sent fields into the stored case and validates the result", async () => {
    const c = await createTestCase(ctx, suiteId, runnableCase({ tags: ["normal"], max_turns: 5, persona, user_context: { plan: "pro" } }));
    const u = await updateTestCase(ctx, c.id, { description: "Refund flow", max_turns: null });
    expect(u).toMatchObject({
      description: "Refund flow",
      max_turns: null,
      tags: ["normal"],
      persona,
      user_context: { plan: "pro" },
      status: "active",
    });
    expect(new Date(u.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(c.updated_at).getTime());

    const issues = await issuesOf(
      updateTestCase(ctx, c.id, { checks: [{ type: "semantic_similarity", expected_answer: "x", threshold: 2 }] }),
    );
    expect(issues).toEqual([{ path: "checks.0.threshold", message: "Threshold must be between 0 and 1" }]);
  });

  it("refuses to leave an active case without initial_message and persona", async () => {
    const c = await createTestCase(ctx, suiteId, runnableCase());
    expect(await issuesOf(updateTestCase(ctx, c.id, { initial_message: null }))).toEqual([{ path: "status", message: RUNNABLE_MESSAGE }]);
    const draft = await updateTestCase(ctx, c.id, { initial_message: null, status: "draft" });
    expect(draft).toMatchObject({ initial_message: null, status: "draft" });
    expect(await issuesOf(updateTestCase(ctx, c.id, { status: "active" }))).toEqual([{ path: "status", message: RUNNABLE_MESSAGE }]);
  });

  it("rejects a body that is not an object", async () => {
    const c = await createTestCase(ctx, suiteId, runnableCase());
    expect(await issuesOf(updateTestCase(ctx, c.id, ["name"]))).toEqual([{ path: "", message: "Expected an object" }]);
  });

  it("keeps archived cases read-only until restored", async () => {
    const c = await createTestCase(ctx, suiteId, runnableCase({ status: "archived", user_context: { b: 1, a: { z: 2, y: 3 } } }));
    const err = await rejection(updateTestCase(ctx, c.id, { name: "renamed" }), ConflictError);
    expect(err.message).toBe(ARCHIVED_READ_ONLY);
    await rejection(updateTestCase(ctx, c.id, { sort_order: 99 }), ConflictError);
    await rejection(updateTestCase(ctx, c.id, { name: "renamed", status: "active" }), ConflictError);
    expect((await getTestCase(ctx, c.id)).name).toBe(c.name);

    // Re-sending the stored values (a full form) with a new status is a status change only.
    const { id: _i, suite_id: _s, created_at: _c, updated_at: _u, sort_order: _o, ...doc } = c;
    const restored = await updateTestCase(ctx, c.id, { ...doc, user_context: { a: { y: 3, z: 2 }, b: 1 }, status: "active" });
    expect(restored.status).toBe("active");
    expect((await updateTestCase(ctx, c.id, { name: "renamed" })).name).toBe("renamed");
  });
});

describe("soft delete and restore", () => {
  it("hides a deleted case and brings it back", async () => {
    const c = await createTestCase(ctx, suiteId, runnableCase());
    await deleteTestCase(ctx, c.id);
    await rejection(getTestCase(ctx, c.id), NotFoundError);
    await rejection(updateTestCase(ctx, c.id, { name: "x" }), NotFoundError);
    await rejection(setTestCaseStatus(ctx, c.id, "draft"), NotFoundError);
    await rejection(deleteTestCase(ctx, c.id), NotFoundError);
    expect(await db.testCase.count({ where: { id: c.id } })).toBe(1);
    const back = await restoreTestCase(ctx, c.id);
    expect(back).toMatchObject({ id: c.id, name: c.name, sort_order: c.sort_order });
    expect((await getTestCase(ctx, c.id)).id).toBe(c.id);
  });

  it("cases of a deleted suite are not found", async () => {
    const c = await createTestCase(ctx, suiteId, runnableCase());
    await db.suite.update({ where: { id: suiteId }, data: { deletedAt: new Date() } });
    await rejection(getTestCase(ctx, c.id), NotFoundError);
    await rejection(createTestCase(ctx, suiteId, runnableCase()), NotFoundError);
    await rejection(duplicateTestCase(ctx, c.id), NotFoundError);
  });
});

describe("duplicate", () => {
  it("copies as a draft named '<name> (copy)', right after the original", async () => {
    const a = await createTestCase(ctx, suiteId, runnableCase({ name: "A" }));
    const b = await createTestCase(
      ctx,
      suiteId,
      runnableCase({ name: "B", persona, tags: ["red-team"], checks: [{ type: "llm_judge", expected_answer: "no" }] }),
    );
    const c = await createTestCase(ctx, suiteId, runnableCase({ name: "C" }));
    const copy = await duplicateTestCase(ctx, b.id);
    expect(copy).toMatchObject({
      name: "B (copy)",
      status: "draft",
      persona,
      tags: ["red-team"],
      checks: b.checks,
      initial_message: b.initial_message,
    });
    expect(copy.id).not.toBe(b.id);
    const order = await db.testCase.findMany({ where: { suiteId }, orderBy: [{ sortOrder: "asc" }, { id: "asc" }], select: { id: true } });
    expect(order.map((r) => r.id)).toEqual([a.id, b.id, copy.id, c.id]);
  });

  it("keeps the copy's name within 255 characters", async () => {
    const long = await createTestCase(ctx, suiteId, runnableCase({ name: "n".repeat(255) }));
    const copy = await duplicateTestCase(ctx, long.id);
    expect(copy.name).toHaveLength(255);
    expect(copy.name.endsWith(" (copy)")).toBe(true);
  });

  it("duplicates an archived case as an editable draft", async () => {
    const arch = await createTestCase(ctx, suiteId, runnableCase({ status: "archived" }));
    const copy = await duplicateTestCase(ctx, arch.id);
    expect((await updateTestCase(ctx, copy.id, { name: "edited" })).name).toBe("edited");
  });
});

describe("roles and workspaces", () => {
  it("viewers read but cannot write", async () => {
    const c = await createTestCase(ctx, suiteId, runnableCase());
    const { ctx: viewer } = await addMember(ctx.workspaceId, "viewer");
    expect((await getTestCase(viewer, c.id)).id).toBe(c.id);
    await rejection(createTestCase(viewer, suiteId, runnableCase()), ForbiddenError);
    await rejection(updateTestCase(viewer, c.id, { name: "x" }), ForbiddenError);
    await rejection(setTestCaseStatus(viewer, c.id, "draft"), ForbiddenError);
    await rejection(deleteTestCase(viewer, c.id), ForbiddenError);
    await rejection(duplicateTestCase(viewer, c.id), ForbiddenError);
  });

  it("another workspace sees nothing: not the suite, not the case", async () => {
    const c = await createTestCase(ctx, suiteId, runnableCase());
    const { ctx: other } = await makeWorkspace("owner");
    await rejection(getTestCase(other, c.id), NotFoundError);
    await rejection(createTestCase(other, suiteId, runnableCase()), NotFoundError);
    await rejection(updateTestCase(other, c.id, { name: "hijack" }), NotFoundError);
    await rejection(setTestCaseStatus(other, c.id, "archived"), NotFoundError);
    await rejection(deleteTestCase(other, c.id), NotFoundError);
    await rejection(restoreTestCase(other, c.id), NotFoundError);
    await rejection(duplicateTestCase(other, c.id), NotFoundError);
    await rejection(getTestCase(other, "not-a-uuid"), NotFoundError);
    expect(await getTestCase(ctx, c.id)).toEqual(c);
  });
});
