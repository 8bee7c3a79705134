// The tenant keys' checks read one row. Every case result a run start inserts has a composite
// foreign key (testCaseId, workspaceId) → TestCase (id, workspaceId), and PostgreSQL checks it
// with `… WHERE "id" = $1 AND "workspaceId" = $2 FOR KEY SHARE`. Right after a suite's cases were
// imported (no statistics yet, as in this file's fresh database) the planner once answered that
// through an index on workspaceId alone: each check read every case of the workspace, 133 µs a
// row for a 1,000-case suite against 5–15 µs for each of the row's other four checks.
import { describe, expect, it } from "vitest";
import { asOwner } from "../helpers/owner-db";
import { makeSuiteWithCases, makeWorkspace } from "../helpers/factories";
import { db } from "@/lib/db";

type PlanNode = { "Node Type": string; "Index Name"?: string; "Shared Hit Blocks"?: number; Plans?: PlanNode[] };

function indexScans(node: PlanNode): PlanNode[] {
  return [...(node["Node Type"] === "Index Scan" ? [node] : []), ...(node.Plans ?? []).flatMap(indexScans)];
}

describe("tenant key checks", () => {
  it("check a test case by its id, not by reading the workspace's cases, before any statistics exist", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 1000);
    const one = await db.testCase.findFirstOrThrow({ where: { suiteId: suite.id }, orderBy: { sortOrder: "desc" } });
    const { plan, analysed } = await asOwner(async (owner) => {
      const stats = await owner.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_stats WHERE schemaname = 'public' AND tablename = 'TestCase'`,
      );
      await owner.query("BEGIN");
      try {
        // The check's own statement (ri_triggers.c), for the newest case of the workspace.
        const { rows } = await owner.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
          `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)
           SELECT 1 FROM ONLY "public"."TestCase" x WHERE "id" OPERATOR(pg_catalog.=) $1 AND "workspaceId" OPERATOR(pg_catalog.=) $2
           FOR KEY SHARE OF x`,
          [one.id, ctx.workspaceId],
        );
        return { plan: rows[0]!["QUERY PLAN"][0]!.Plan, analysed: Number(stats.rows[0]!.n) > 0 };
      } finally {
        await owner.query("ROLLBACK");
      }
    });
    expect(analysed).toBe(false); // the state a freshly imported suite is in
    const [scan] = indexScans(plan);
    expect(scan, JSON.stringify(plan)).toBeDefined();
    // A point lookup: a few index pages and the row's heap page, not the workspace's 1,000 cases.
    expect(scan!["Shared Hit Blocks"] ?? 0).toBeLessThanOrEqual(6);
    expect(scan!["Index Name"]).not.toBe("TestCase_workspaceId_idx");
  });
});
