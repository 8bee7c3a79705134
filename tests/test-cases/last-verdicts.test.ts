import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { listTestCases } from "@/lib/test-cases/service";
import { recentCaseResults } from "@/lib/test-cases/last-verdicts";
import { testCaseListQuery } from "@/lib/test-cases/schemas";
import { ValidationError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { makeSuiteWithCases, makeWorkspace, rejection, runWithOutcomes } from "../helpers/factories";

/**
 * The suite page's last verdict per case: the newest finished result in an ordinary run (an
 * experiment's results never count), its latest results newest first, and the list sorted by it.
 */

let ctx: WorkspaceContext;
let suiteId: string;
const ids = new Map<string, string>();

const query = (q: Record<string, unknown> = {}) => testCaseListQuery.parse(q);

beforeAll(async () => {
  ({ ctx } = await makeWorkspace("editor"));
  suiteId = (await makeSuiteWithCases(ctx, 3)).suite.id;
  await runWithOutcomes(ctx, suiteId, { "case 0": "failed", "case 1": "passed", "case 2": "error" });
  await runWithOutcomes(ctx, suiteId, { "case 0": "passed", "case 1": "failed", "case 2": "error" });
  // A comparison arm, newer than both: every case failed there, which must not become its last verdict.
  const experiment = await runWithOutcomes(ctx, suiteId, { "case 0": "failed", "case 1": "failed", "case 2": "failed" });
  const comparison = await db.comparison.create({ data: { workspaceId: ctx.workspaceId, suiteId, name: "arms", status: "completed" } });
  await db.run.update({ where: { id: experiment.id }, data: { comparisonId: comparison.id, armIndex: 0 } });
  // A case added after the runs: it never ran.
  await db.testCase.create({ data: { workspaceId: ctx.workspaceId, suiteId, name: "case 3", initialMessage: "question 3", sortOrder: 3 } });
  for (const c of await db.testCase.findMany({ where: { suiteId }, select: { id: true, name: true } })) ids.set(c.name, c.id);
});

describe("recentCaseResults", () => {
  it("gives each case its newest ordinary verdict and its latest results, newest first", async () => {
    const results = await recentCaseResults(ctx, [...ids.values()]);
    const of = (name: string) => results.get(ids.get(name)!)!;
    expect(of("case 0").last_verdict).toBe("passed");
    expect(of("case 0").recent.map((r) => [r.run_number, r.status])).toEqual([
      [2, "passed"],
      [1, "failed"],
    ]);
    expect(of("case 1").last_verdict).toBe("failed");
    expect(of("case 2").last_verdict).toBe("error");
    expect(of("case 3")).toEqual({ last_verdict: null, recent: [] });
  });

  it("reads nothing of another workspace's cases", async () => {
    const { ctx: other } = await makeWorkspace("owner");
    const results = await recentCaseResults(other, [...ids.values()]);
    expect([...results.values()].every((r) => r.last_verdict === null && r.recent.length === 0)).toBe(true);
  });
});

describe("listTestCases sorted by last verdict", () => {
  it("puts failed first, then errors, passes and cases never run, across pages", async () => {
    const first = await listTestCases(ctx, suiteId, query({ limit: 2 }), "verdict");
    expect(first.data.map((c) => c.name)).toEqual(["case 1", "case 2"]);
    const second = await listTestCases(ctx, suiteId, query({ limit: 2, cursor: first.next_cursor }), "verdict");
    expect(second.data.map((c) => c.name)).toEqual(["case 0", "case 3"]);
    expect(second.next_cursor).toBeNull();
  });

  it("keeps the filters and counts of the run order", async () => {
    const page = await listTestCases(ctx, suiteId, query({ q: "case 0" }), "verdict");
    expect(page.data.map((c) => c.name)).toEqual(["case 0"]);
    const plain = await listTestCases(ctx, suiteId, query());
    expect(plain.data.map((c) => c.name)).toEqual(["case 0", "case 1", "case 2", "case 3"]);
    expect(page.counts).toEqual((await listTestCases(ctx, suiteId, query({ q: "case 0" }))).counts);
  });

  it("refuses a cursor of the other order", async () => {
    const plain = await listTestCases(ctx, suiteId, query({ limit: 1 }));
    await rejection(listTestCases(ctx, suiteId, query({ limit: 1, cursor: plain.next_cursor }), "verdict"), ValidationError);
  });
});
