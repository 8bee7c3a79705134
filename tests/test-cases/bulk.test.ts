import { beforeEach, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db";
import {
  bulkSetStatus,
  bulkTags,
  createTestCase,
  deleteTestCase,
  getTestCase,
  reorderTestCases,
  type TestCaseDto,
} from "@/lib/test-cases/service";
import { NOT_FOUND_REASON, REORDER_MESSAGE } from "@/lib/test-cases/bulk";
import { RUNNABLE_MESSAGE } from "@/lib/test-cases/schemas";
import { ForbiddenError, NotFoundError, ValidationError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { addMember, makeWorkspace, makeSuite, rejection, runnableCase } from "../helpers/factories";

let ctx: WorkspaceContext;
let suiteId: string;
let cases: TestCaseDto[];

beforeEach(async () => {
  ({ ctx } = await makeWorkspace("editor"));
  suiteId = (await makeSuite(ctx.workspaceId)).id;
  cases = [];
  for (const name of ["a", "b", "c", "d"])
    cases.push(await createTestCase(ctx, suiteId, runnableCase({ name, status: "draft", tags: ["normal"] })));
});

async function order(suite = suiteId) {
  const rows = await db.testCase.findMany({
    where: { suiteId: suite, deletedAt: null },
    orderBy: [{ sortOrder: "asc" }, { id: "asc" }],
    select: { name: true },
  });
  return rows.map((r) => r.name);
}

describe("creation order", () => {
  it("appends new cases after the last one", async () => {
    expect(cases.map((c) => c.sort_order)).toEqual([0, 1, 2, 3]);
    expect(await order()).toEqual(["a", "b", "c", "d"]);
  });
});

describe("reorderTestCases", () => {
  it("stores the given order", async () => {
    const [a, b, c, d] = cases.map((x) => x.id) as [string, string, string, string];
    await reorderTestCases(ctx, suiteId, [d, b, a, c]);
    expect(await order()).toEqual(["d", "b", "a", "c"]);
    const next = await createTestCase(ctx, suiteId, runnableCase({ name: "e" }));
    expect(await order()).toEqual(["d", "b", "a", "c", "e"]);
    expect(next.sort_order).toBeGreaterThan((await getTestCase(ctx, c)).sort_order);
  });

  it("requires exactly the suite's live cases, each once", async () => {
    const ids = cases.map((x) => x.id);
    const foreign = await createTestCase(ctx, (await makeSuite(ctx.workspaceId)).id, runnableCase());
    for (const bad of [ids.slice(0, 3), [...ids, ids[0]!], [...ids.slice(0, 3), foreign.id], [...ids, randomUUID()]]) {
      const err = await rejection(reorderTestCases(ctx, suiteId, bad), ValidationError);
      expect(err.issues).toEqual([{ path: "ids", message: REORDER_MESSAGE }]);
    }
    expect(await order()).toEqual(["a", "b", "c", "d"]);
    // Deleted cases are not part of the order.
    await deleteTestCase(ctx, ids[1]!);
    await reorderTestCases(ctx, suiteId, [ids[3]!, ids[2]!, ids[0]!]);
    expect(await order()).toEqual(["d", "c", "a"]);
  });

  it("is refused across workspaces and for viewers", async () => {
    const ids = cases.map((x) => x.id);
    const { ctx: other } = await makeWorkspace("owner");
    await rejection(reorderTestCases(other, suiteId, ids), NotFoundError);
    const { ctx: viewer } = await addMember(ctx.workspaceId, "viewer");
    await rejection(reorderTestCases(viewer, suiteId, ids), ForbiddenError);
  });
});

describe("bulkSetStatus", () => {
  it("activates runnable cases and skips the others with the reason", async () => {
    const shell = await createTestCase(ctx, suiteId, { name: "shell", status: "draft" });
    const foreign = await createTestCase(ctx, (await makeSuite(ctx.workspaceId)).id, runnableCase({ status: "draft" }));
    const missing = randomUUID();
    const ids = [cases[0]!.id, cases[1]!.id, shell.id, foreign.id, missing];
    const result = await bulkSetStatus(ctx, suiteId, ids, "active");
    expect(result.updated).toBe(2);
    expect(result.skipped).toEqual([
      { id: shell.id, reason: RUNNABLE_MESSAGE },
      { id: foreign.id, reason: NOT_FOUND_REASON },
      { id: missing, reason: NOT_FOUND_REASON },
    ]);
    expect((await getTestCase(ctx, cases[0]!.id)).status).toBe("active");
    expect((await getTestCase(ctx, shell.id)).status).toBe("draft");
    expect((await getTestCase(ctx, foreign.id)).status).toBe("draft");
  });

  it("archives and returns to draft without the runnable rule", async () => {
    const shell = await createTestCase(ctx, suiteId, { name: "shell", status: "draft" });
    const archived = await bulkSetStatus(ctx, suiteId, [shell.id, cases[2]!.id], "archived");
    expect(archived).toEqual({ updated: 2, skipped: [] });
    expect((await bulkSetStatus(ctx, suiteId, [shell.id], "draft")).updated).toBe(1);
  });

  it("validates its input and scope", async () => {
    await rejection(bulkSetStatus(ctx, suiteId, [], "active"), ValidationError);
    await rejection(bulkSetStatus(ctx, suiteId, ["nope"], "active"), ValidationError);
    const { ctx: other } = await makeWorkspace("owner");
    await rejection(bulkSetStatus(other, suiteId, [cases[0]!.id], "archived"), NotFoundError);
    expect((await getTestCase(ctx, cases[0]!.id)).status).toBe("draft");
  });
});

describe("bulkTags", () => {
  it("adds and removes tags in place, without duplicates, keeping order", async () => {
    const [a, b] = cases as [TestCaseDto, TestCaseDto];
    await db.testCase.update({ where: { id: b.id }, data: { tags: ["billing", "normal"] } });
    const r = await bulkTags(ctx, suiteId, [a.id, b.id], ["red-team", "billing"], ["normal"]);
    expect(r).toEqual({ updated: 2 });
    expect((await getTestCase(ctx, a.id)).tags).toEqual(["red-team", "billing"]);
    expect((await getTestCase(ctx, b.id)).tags).toEqual(["billing", "red-team"]);
    expect((await getTestCase(ctx, cases[2]!.id)).tags).toEqual(["normal"]);
  });

  it("a tag both added and removed ends up removed; empty edits change nothing", async () => {
    const a = cases[0]!;
    expect(await bulkTags(ctx, suiteId, [a.id], ["x"], ["x", "normal"])).toEqual({ updated: 1 });
    expect((await getTestCase(ctx, a.id)).tags).toEqual([]);
    expect(await bulkTags(ctx, suiteId, [a.id], [], [])).toEqual({ updated: 0 });
  });

  it("leaves archived, deleted and foreign cases alone and validates tags", async () => {
    const [a, b, c] = cases as [TestCaseDto, TestCaseDto, TestCaseDto];
    await bulkSetStatus(ctx, suiteId, [b.id], "archived");
    await deleteTestCase(ctx, c.id);
    const foreign = await createTestCase(ctx, (await makeSuite(ctx.workspaceId)).id, runnableCase({ tags: [] }));
    expect(await bulkTags(ctx, suiteId, [a.id, b.id, c.id, foreign.id], ["edge-case"], [])).toEqual({ updated: 1 });
    expect((await getTestCase(ctx, b.id)).tags).toEqual(["normal"]);
    expect((await getTestCase(ctx, foreign.id)).tags).toEqual([]);
    const err = await rejection(bulkTags(ctx, suiteId, [a.id], ["a,b"], []), ValidationError);
    expect(err.issues).toEqual([{ path: "add.0", message: "Tags cannot contain commas" }]);
    const { ctx: viewer } = await addMember(ctx.workspaceId, "viewer");
    await rejection(bulkTags(viewer, suiteId, [a.id], ["x"], []), ForbiddenError);
  });
});
