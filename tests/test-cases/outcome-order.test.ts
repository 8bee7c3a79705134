/**
 * expected_outcomes is jsonb (the reference schema), which reorders object keys: every write path records the
 * authored label order and every read path restores it. Also the execution model's `evaluations` field.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestCase, getTestCase, listTestCases, updateTestCase } from "@/lib/test-cases/service";
import { importTestCases, parseCasesDocument } from "@/lib/test-cases/import-export";
import { testCaseListQuery } from "@/lib/test-cases/schemas";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { exportText, makeWorkspace, issuesOf, makeSuite, runnableCase } from "../helpers/factories";

let ctx: WorkspaceContext;
let suiteId: string;
beforeEach(async () => {
  ({ ctx } = await makeWorkspace("editor"));
  suiteId = (await makeSuite(ctx.workspaceId)).id;
});

// Longest first and not alphabetical: jsonb would return "b", "mid", "zeta label" order.
const outcomes = { "zeta label": true, b: "short", mid: { nested: 1 } };
const labels = Object.keys(outcomes);

describe("expected outcome order", () => {
  it("create, read, list and update keep the authored order; the column is jsonb", async () => {
    const created = await createTestCase(ctx, suiteId, runnableCase({ expected_outcomes: outcomes }));
    expect(Object.keys(created.expected_outcomes!)).toEqual(labels);
    expect(Object.keys((await getTestCase(ctx, created.id)).expected_outcomes!)).toEqual(labels);
    const listed = await listTestCases(ctx, suiteId, testCaseListQuery.parse({}));
    expect(Object.keys(listed.data[0]!.expected_outcomes!)).toEqual(labels);
    const [row] = await db.$queryRaw<{ type: string; labels: string[] }[]>`
      SELECT pg_typeof("expectedOutcomes")::text AS type, "expectedOutcomeLabels" AS labels FROM "TestCase" WHERE "id" = ${created.id}::uuid`;
    expect(row).toEqual({ type: "jsonb", labels });

    const reordered = { mid: 2, "a new one": true, "zeta label": false };
    const updated = await updateTestCase(ctx, created.id, { expected_outcomes: reordered });
    expect(Object.keys(updated.expected_outcomes!)).toEqual(Object.keys(reordered));
    const cleared = await updateTestCase(ctx, created.id, { expected_outcomes: null });
    expect(cleared.expected_outcomes).toBeNull();
    expect((await db.testCase.findUniqueOrThrow({ where: { id: created.id } })).expectedOutcomeLabels).toEqual([]);
  });

  it("export and import keep the order (JSON and YAML)", async () => {
    await createTestCase(ctx, suiteId, runnableCase({ name: "ordered", expected_outcomes: outcomes, evaluations: ["relevance"] }));
    for (const format of ["json", "yaml"] as const) {
      const doc = await exportText(ctx, suiteId, format);
      expect(doc.body.indexOf("zeta label")).toBeLessThan(doc.body.indexOf("mid"));
      const target = (await makeSuite(ctx.workspaceId)).id;
      await importTestCases(ctx, target, parseCasesDocument(doc.body, format), { validOnly: false });
      const [copy] = (await listTestCases(ctx, target, testCaseListQuery.parse({}))).data;
      expect(Object.keys(copy!.expected_outcomes!)).toEqual(labels);
      expect(copy!.evaluations).toEqual(["relevance"]);
    }
  });

  it("reads rows written without labels (older code) with their keys", async () => {
    const created = await createTestCase(ctx, suiteId, runnableCase({ expected_outcomes: outcomes }));
    await db.testCase.update({ where: { id: created.id }, data: { expectedOutcomeLabels: ["mid"] } });
    expect(Object.keys((await getTestCase(ctx, created.id)).expected_outcomes!)).toEqual(["mid", "b", "zeta label"]);
  });
});

describe("evaluations (the execution model's per-test metric selection)", () => {
  it("stores null, [] and a list of names; validates names", async () => {
    const none = await createTestCase(ctx, suiteId, runnableCase());
    expect(none.evaluations).toBeNull();
    const empty = await createTestCase(ctx, suiteId, runnableCase({ evaluations: [] }));
    expect(empty.evaluations).toEqual([]);
    const some = await createTestCase(ctx, suiteId, runnableCase({ evaluations: ["relevance", "politeness", "relevance"] }));
    expect(some.evaluations).toEqual(["relevance", "politeness"]);
    expect((await updateTestCase(ctx, some.id, { evaluations: null })).evaluations).toBeNull();
    const issues = await issuesOf(createTestCase(ctx, suiteId, runnableCase({ evaluations: ["has space"] })));
    expect(issues).toEqual([{ path: "evaluations.0", message: "Metric names use letters, digits, - and _ only" }]);
  });
});
