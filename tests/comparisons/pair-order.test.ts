import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { listPairs } from "@/lib/comparisons/service";
import { NotFoundError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { makeSuite, makeWorkspace, rejection } from "../helpers/factories";

/** The comparison page's default pair order: flipped verdicts first (pass → fail, fail → pass), then errors, then the rest. */

let ctx: WorkspaceContext;
let comparisonId: string;

beforeAll(async () => {
  ({ ctx } = await makeWorkspace("viewer"));
  const suite = await makeSuite(ctx.workspaceId);
  const comparison = await db.comparison.create({
    data: { workspaceId: ctx.workspaceId, suiteId: suite.id, name: "c", status: "completed" },
  });
  comparisonId = comparison.id;
  const changes = ["same", "error", "fail_to_pass", "same", "pass_to_fail", null, "pass_to_fail"];
  await db.comparisonPair.createMany({
    data: changes.map((verdictChange, index) => ({
      workspaceId: ctx.workspaceId,
      comparisonId,
      index,
      testCaseName: `case ${index}`,
      question: "q",
      verdictChange,
    })),
  });
});

describe("listPairs sort=flipped", () => {
  it("lists pass → fail, then fail → pass, errors, and the rest by index, across pages", async () => {
    const first = await listPairs(ctx, comparisonId, { sort: "flipped", limit: 4 });
    expect(first.data.map((p) => p.index)).toEqual([4, 6, 2, 1]);
    const second = await listPairs(ctx, comparisonId, { sort: "flipped", limit: 4, cursor: first.next_cursor! });
    expect(second.data.map((p) => p.index)).toEqual([0, 3, 5]);
    expect(second.next_cursor).toBeNull();
  });

  it("keeps the verdict change filter", async () => {
    const flips = await listPairs(ctx, comparisonId, { sort: "flipped", verdict_change: "pass_to_fail", limit: 50 });
    expect(flips.data.map((p) => p.index)).toEqual([4, 6]);
  });

  it("shows nothing of another workspace's comparison", async () => {
    const { ctx: other } = await makeWorkspace("owner");
    await rejection(listPairs(other, comparisonId, { sort: "flipped", limit: 50 }), NotFoundError);
  });
});
