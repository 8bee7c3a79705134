// Plans on tables PostgreSQL has no statistics for yet: a suite's cases right after an import,
// a run's case results while it runs (this file's database is fresh, so both are in that state).
//
// The tenant keys' checks read one row. Every case result a run start inserts has a composite
// foreign key (testCaseId, workspaceId) → TestCase (id, workspaceId), and PostgreSQL checks it
// with `… WHERE "id" = $1 AND "workspaceId" = $2 FOR KEY SHARE`. Right after a suite's cases were
// imported (no statistics yet, as in this file's fresh database) the planner once answered that
// through an index on workspaceId alone: each check read every case of the workspace, 133 µs a
// row for a 1,000-case suite against 5–15 µs for each of the row's other four checks.
import { describe, expect, it } from "vitest";
import { asOwner } from "../helpers/owner-db";
import { makeSuiteWithCases, makeWorkspace, waitFor } from "../helpers/factories";
import { db } from "@/lib/db";
import { startRun } from "@/lib/runs/service";

type PlanNode = {
  "Node Type": string;
  "Index Name"?: string;
  "Shared Hit Blocks"?: number;
  "Index Cond"?: string;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
};

function nodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodes)];
}

describe("plans before statistics", () => {
  it("check a test case by its id, not by reading the workspace's cases, also before any statistics exist", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 1000);
    const one = await db.testCase.findFirstOrThrow({ where: { suiteId: suite.id }, orderBy: { sortOrder: "desc" } });
    const plan = await asOwner(async (owner) => {
      await owner.query("BEGIN");
      try {
        // The check's own statement (ri_triggers.c), for the newest case of the workspace.
        const { rows } = await owner.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
          `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)
           SELECT 1 FROM ONLY "public"."TestCase" x WHERE "id" OPERATOR(pg_catalog.=) $1 AND "workspaceId" OPERATOR(pg_catalog.=) $2
           FOR KEY SHARE OF x`,
          [one.id, ctx.workspaceId],
        );
        return rows[0]!["QUERY PLAN"][0]!.Plan;
      } finally {
        await owner.query("ROLLBACK");
      }
    });
    // A point lookup: a few index pages and the row's heap page, not the workspace's 1,000 cases
    // (24 buffers through the workspaceId-only index).
    const buffers = (plan["Shared Hit Blocks"] ?? 0) + (plan["Shared Read Blocks"] ?? 0);
    expect(buffers, JSON.stringify(plan)).toBeLessThanOrEqual(8);
    expect(nodes(plan).map((n) => n["Index Name"])).not.toContain("TestCase_workspaceId_idx");
  });

  // The hand-off (lib/runs/result-writer.ts, `next`) and a claim (lib/runs/claims.ts) take a run's
  // first pending cases in position order. Through the (runId, status) index alone that meant
  // sorting every pending case of the run on each result write: a third of a 1,000-case run's
  // writes did, 0.7 ms each, on the connections whose cached plan took that index.
  it("take a run's first pending cases in order without sorting them all", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 400);
    const run = await startRun(ctx, suite.id, { concurrency: 50 }, "api");
    await waitFor(
      () => db.caseResult.count({ where: { runId: run.id } }),
      (n) => n === 400,
      10_000,
    );
    const [plan, handoffPlan] = await asOwner(async (owner) => {
      // The plan a prepared statement settles on (the write is one), with the limit a parameter.
      const explain = async (where: string) => {
        const { rows } = await owner.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
          `EXPLAIN (GENERIC_PLAN, FORMAT JSON)
           SELECT n."id" FROM "CaseResult" n WHERE n."runId" = $1::uuid AND n."status" = 'pending' ${where}
           ORDER BY n."position", n."variant" LIMIT $2::int FOR NO KEY UPDATE SKIP LOCKED`,
        );
        return rows[0]!["QUERY PLAN"][0]!.Plan;
      };
      return [await explain(""), await explain(`AND n."position" > $3::int`)];
    });
    for (const p of [plan, handoffPlan]) {
      expect(
        nodes(p).map((n) => n["Node Type"]),
        JSON.stringify(p),
      ).not.toContain("Sort");
    }
    // The hand-off reads after the last position its executor launched (Handoff.from): the index
    // scan starts there, instead of walking the entries every claimed case left behind.
    expect(
      nodes(handoffPlan).some((n) => /position/.test(n["Index Cond"] ?? "")),
      JSON.stringify(handoffPlan),
    ).toBe(true);
  });
});
