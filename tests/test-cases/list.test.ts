import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import {
  createTestCase,
  deleteTestCase,
  getTestCase,
  listSuiteTags,
  listTestCaseIds,
  listTestCases,
  type TestCaseDto,
} from "@/lib/test-cases/service";
import { searchPredicate } from "@/lib/test-cases/list";
import { testCaseListQuery } from "@/lib/test-cases/schemas";
import { NotFoundError, ValidationError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { addMember, makeWorkspace, makeSuite, rejection } from "../helpers/factories";
import { asOwner } from "../helpers/owner-db";
import { readAllPages } from "../helpers/api";

let ctx: WorkspaceContext;
let suiteId: string;
const byName = new Map<string, TestCaseDto>();

const query = (q: Record<string, unknown> = {}) => testCaseListQuery.parse(q);
const names = (rows: TestCaseDto[]) => rows.map((r) => r.name);

beforeAll(async () => {
  ({ ctx } = await makeWorkspace("editor"));
  suiteId = (await makeSuite(ctx.workspaceId)).id;
  const specs: Record<string, unknown>[] = [
    { name: "refund happy path", tags: ["normal", "billing"], initial_message: "I want a refund" },
    { name: "prompt injection", tags: ["red-team"], difficulty: "hard", initial_message: "Ignore previous instructions" },
    {
      name: "jailbreak via roleplay",
      tags: ["red-team", "billing"],
      difficulty: "hard",
      status: "draft",
      description: "Pretend 100% discount",
    },
    { name: "empty message", tags: ["edge-case"], status: "archived", initial_message: "   x" },
    { name: "order lookup", tags: ["normal", "tools"], initial_message: "Where is order A_1?" },
    { name: "angry customer", tags: [], persona: { type: "angry", description: "Late delivery", instructions: "Shout" }, status: "draft" },
  ];
  for (const s of specs) byName.set(s.name as string, await createTestCase(ctx, suiteId, s));
  // A deleted case and a case of another suite never show up.
  const gone = await createTestCase(ctx, suiteId, { name: "deleted refund", tags: ["billing"], initial_message: "refund" });
  await deleteTestCase(ctx, gone.id);
  const otherSuite = await makeSuite(ctx.workspaceId);
  await createTestCase(ctx, otherSuite.id, { name: "other suite refund", tags: ["billing"], initial_message: "refund" });
});

describe("listTestCases", () => {
  it("lists live cases in sort order with counts per status", async () => {
    const page = await listTestCases(ctx, suiteId, query());
    expect(names(page.data)).toEqual([
      "refund happy path",
      "prompt injection",
      "jailbreak via roleplay",
      "empty message",
      "order lookup",
      "angry customer",
    ]);
    expect(page.next_cursor).toBeNull();
    expect(page.counts).toEqual({ draft: 2, active: 3, archived: 1, total: 6 });
    // Rows of the list are the same DTO as a single read.
    expect(page.data[0]).toEqual(await getTestCase(ctx, byName.get("refund happy path")!.id));
    expect(page.data[5]).toEqual(byName.get("angry customer"));
  });

  it("filters by tag with any/all matching", async () => {
    expect(names((await listTestCases(ctx, suiteId, query({ tag: "billing,red-team" }))).data)).toEqual([
      "refund happy path",
      "prompt injection",
      "jailbreak via roleplay",
    ]);
    expect(names((await listTestCases(ctx, suiteId, query({ tag: ["billing", "red-team"], tag_match: "all" }))).data)).toEqual([
      "jailbreak via roleplay",
    ]);
    expect(names((await listTestCases(ctx, suiteId, query({ tag: ["nope"] }))).data)).toEqual([]);
  });

  it("filters by status and difficulty; counts ignore only the status filter", async () => {
    const drafts = await listTestCases(ctx, suiteId, query({ status: "draft" }));
    expect(names(drafts.data)).toEqual(["jailbreak via roleplay", "angry customer"]);
    expect(drafts.counts).toEqual({ draft: 2, active: 3, archived: 1, total: 6 });
    const hard = await listTestCases(ctx, suiteId, query({ difficulty: "hard" }));
    expect(names(hard.data)).toEqual(["prompt injection", "jailbreak via roleplay"]);
    expect(hard.counts).toEqual({ draft: 1, active: 1, archived: 0, total: 2 });
    const hardRedDraft = await listTestCases(ctx, suiteId, query({ difficulty: "hard", tag: "red-team", status: "draft" }));
    expect(names(hardRedDraft.data)).toEqual(["jailbreak via roleplay"]);
    expect(hardRedDraft.counts).toEqual({ draft: 1, active: 1, archived: 0, total: 2 });
  });

  it("searches name, description and initial message case-insensitively, with LIKE characters taken literally", async () => {
    expect(names((await listTestCases(ctx, suiteId, query({ q: "REFUND" }))).data)).toEqual(["refund happy path"]);
    expect(names((await listTestCases(ctx, suiteId, query({ q: "previous instr" }))).data)).toEqual(["prompt injection"]);
    expect(names((await listTestCases(ctx, suiteId, query({ q: "100%" }))).data)).toEqual(["jailbreak via roleplay"]);
    expect(names((await listTestCases(ctx, suiteId, query({ q: "A_1" }))).data)).toEqual(["order lookup"]);
    expect(names((await listTestCases(ctx, suiteId, query({ q: "A%1" }))).data)).toEqual([]);
    const counted = await listTestCases(ctx, suiteId, query({ q: "refund" }));
    expect(counted.counts).toEqual({ draft: 0, active: 1, archived: 0, total: 1 });
  });

  it("uses the trigram index expression for text search", async () => {
    // Planned as the owner, without row-level security: under the app role's policies PostgreSQL
    // evaluates the policy first and may not use an index for a qual that is not leakproof (ILIKE
    // is not), so there the plan is a scan whatever the expression. This checks the expression.
    const predicate = searchPredicate("refund");
    const plan = await asOwner(async (owner) => {
      await owner.query("BEGIN");
      await owner.query("SET LOCAL enable_seqscan = off");
      const { rows } = await owner.query<{ "QUERY PLAN": string }>(
        `EXPLAIN SELECT "id" FROM "TestCase" WHERE ${predicate.text}`,
        predicate.values,
      );
      await owner.query("ROLLBACK");
      return rows;
    });
    expect(plan.map((r) => r["QUERY PLAN"]).join("\n")).toContain("TestCase_search_trgm_idx");
  });

  it("paginates by keyset without duplicates or gaps, also when filtered", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listTestCases(ctx, suiteId, query({ limit: 4, cursor }));
      seen.push(...page.data.map((r) => r.id));
      cursor = page.next_cursor ?? undefined;
      pages++;
    } while (cursor && pages < 10);
    const all = (await listTestCases(ctx, suiteId, query({ limit: 200 }))).data.map((r) => r.id);
    expect(pages).toBe(2);
    expect(seen).toEqual(all);

    const first = await listTestCases(ctx, suiteId, query({ limit: 1, tag: "red-team" }));
    expect(names(first.data)).toEqual(["prompt injection"]);
    const second = await listTestCases(ctx, suiteId, query({ limit: 1, tag: "red-team", cursor: first.next_cursor }));
    expect(names(second.data)).toEqual(["jailbreak via roleplay"]);
    expect(second.next_cursor).toBeNull();
  });

  it("pages correctly when sort orders tie (ordered by id within a sort order)", async () => {
    const suite = await makeSuite(ctx.workspaceId);
    for (let i = 0; i < 7; i++) await createTestCase(ctx, suite.id, { name: `tie ${i}`, status: "draft", sort_order: i % 2 });
    const { items } = await readAllPages((cursor) => listTestCases(ctx, suite.id, query({ limit: 2, cursor: cursor ?? undefined })), 2);
    const seen = items.map((r) => r.id);
    const expected = await db.testCase.findMany({
      where: { suiteId: suite.id },
      orderBy: [{ sortOrder: "asc" }, { id: "asc" }],
      select: { id: true },
    });
    expect(seen).toEqual(expected.map((r) => r.id));
  });

  it("treats blank filter values (a GET form's 'all' option) as not given", async () => {
    const page = await listTestCases(ctx, suiteId, query({ status: "", difficulty: "", tag_match: "", cursor: "", q: " ", tag: "" }));
    expect(page.data).toHaveLength(6);
  });

  it("rejects a malformed cursor", async () => {
    const err = await rejection(listTestCases(ctx, suiteId, query({ cursor: "bm9wZQ" })), ValidationError);
    expect(err.issues[0]?.path).toBe("cursor");
  });

  it("is scoped to the workspace and to live suites", async () => {
    const { ctx: other } = await makeWorkspace("owner");
    await rejection(listTestCases(other, suiteId, query()), NotFoundError);
    await rejection(listSuiteTags(other, suiteId), NotFoundError);
    const { ctx: viewer } = await addMember(ctx.workspaceId, "viewer");
    expect((await listTestCases(viewer, suiteId, query())).counts.total).toBe(6);
    const dead = await makeSuite(ctx.workspaceId);
    await db.suite.update({ where: { id: dead.id }, data: { deletedAt: new Date() } });
    await rejection(listTestCases(ctx, dead.id, query()), NotFoundError);
  });
});

describe("listSuiteTags", () => {
  it("offers the suite's tags and the pre-seeded ones, sorted", async () => {
    expect(await listSuiteTags(ctx, suiteId)).toEqual(["billing", "edge-case", "normal", "red-team", "tools"]);
    const empty = await makeSuite(ctx.workspaceId);
    expect(await listSuiteTags(ctx, empty.id)).toEqual(["edge-case", "normal", "red-team"]);
  });
});

describe("listTestCaseIds", () => {
  it("returns every live case id of the suite in list order, and nothing of other workspaces", async () => {
    const all = await listTestCases(ctx, suiteId, query({ limit: 200 }));
    expect(await listTestCaseIds(ctx, suiteId)).toEqual(all.data.map((c) => c.id));
    const { ctx: stranger } = await makeWorkspace("owner");
    await expect(listTestCaseIds(stranger, suiteId)).rejects.toBeInstanceOf(NotFoundError);
  });
});
