import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { claimCandidates, claimCases, claimPairs, type ClaimLease } from "@/lib/runs/claims";
import { startRun } from "@/lib/runs/service";
import { createComparison } from "@/lib/comparisons/service";
import { makeWorkspace } from "../helpers/factories";
import { makeSuiteWithCases } from "./helpers";
import { pendingRun, statusCounts } from "./run-fixtures";

// The claim functions on their own, with no executor running: nothing else claims, so every
// count below is what the claims alone did.

const lease = (workerId: string, workspaceMaxRunning: number | null = null): ClaimLease => ({
  workerId,
  leaseMs: 30_000,
  workspaceMaxRunning,
});

describe("claim SQL: hostile input", () => {
  it("claims nothing for ids that are not UUIDs, and leaves the run untouched", async () => {
    const { ctx, run } = await pendingRun(3, 3);
    for (const bad of [`${run.id}' OR '1'='1`, `'; UPDATE "CaseResult" SET "status" = 'error'; --`, "", run.id.toUpperCase() + "x"]) {
      expect(await claimCases(lease("w"), bad, 3, ctx.workspaceId)).toEqual([]);
      expect(await claimCases(lease("w", 5), run.id, 3, `${ctx.workspaceId}'; --`)).toEqual([]);
    }
    expect(await statusCounts(run.id)).toEqual({ pending: 3 });
  });

  it("stores a worker id full of SQL verbatim as the lease owner", async () => {
    const { ctx, run } = await pendingRun(2, 2);
    const hostile = `w'); DELETE FROM "CaseResult"; -- \\ $1 "quoted"`;
    const jobs = await claimCases(lease(hostile, 10), run.id, 2, ctx.workspaceId);
    expect(jobs).toHaveLength(2);
    const rows = await db.caseResult.findMany({ where: { runId: run.id } });
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.leaseOwner)).toEqual([hostile, hostile]);
  });

  it("clamps limits that are not whole, finite, non-negative numbers", async () => {
    const { ctx, run } = await pendingRun(5, 3);
    for (const limit of [Number.NaN, Number.POSITIVE_INFINITY, -4, 0]) {
      expect(await claimCases(lease("w"), run.id, limit, ctx.workspaceId)).toEqual([]);
    }
    expect((await claimCases(lease("w"), run.id, 1.9, ctx.workspaceId)).length).toBe(1);
    // A huge limit is bounded by the run's concurrency (3), of which one case is already running.
    expect((await claimCases(lease("w"), run.id, 1e12, ctx.workspaceId)).length).toBe(2);
    expect(await statusCounts(run.id)).toEqual({ pending: 2, running: 3 });
  });

  it("passes a hostile comparison id as a parameter: the database rejects it as a UUID and nothing changes", async () => {
    const { ctx, run } = await pendingRun(2, 2);
    await expect(claimPairs(lease("w"), `x' OR '1'='1`, 4, ctx.workspaceId)).rejects.toMatchObject({ code: "22P02" });
    expect(await statusCounts(run.id)).toEqual({ pending: 2 });
  });
});

describe("claim SQL: exactly once and within bounds", () => {
  it("hands each case to one worker only when many claim a run at once, within its concurrency", async () => {
    const { ctx, run } = await pendingRun(40, 12);
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => claimCases(lease(`w${i}`), run.id, 5, ctx.workspaceId)));
    const ids = claims.flat().map((j) => j.caseResultId);
    expect(ids.length).toBe(12);
    expect(new Set(ids).size).toBe(ids.length);
    const rows = await db.caseResult.findMany({ where: { runId: run.id, status: "running" } });
    expect(rows).toHaveLength(12);
    expect(await db.run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({ status: "running" });
  });

  it("holds the workspace cap across runs claimed at once", async () => {
    const { ctx, run: a } = await pendingRun(10, 10);
    const { run: b } = await pendingRun(10, 10, ctx);
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, i) => claimCases(lease(`w${i}`, 7), i % 2 ? a.id : b.id, 4, ctx.workspaceId)),
    );
    expect(claims.flat()).toHaveLength(7);
  });

  it("claims whole comparison pairs once each, within the comparison's concurrency", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 6);
    const cmp = await createComparison(ctx, suite.id, { baseline: {}, variant: { temperature: 0.5 }, concurrency: 4 });
    const claims = await Promise.all(Array.from({ length: 5 }, (_, i) => claimPairs(lease(`w${i}`), cmp.id, 2, ctx.workspaceId)));
    const pairs = claims.flatMap((c) => c.pairs);
    expect(pairs).toHaveLength(4);
    for (const pair of pairs) {
      expect(pair).toHaveLength(2);
      expect(new Set(pair.map((j) => j.runId)).size).toBe(2);
      expect(pair[0]!.position).toBe(pair[1]!.position);
    }
    const positions = pairs.map((p) => p[0]!.position);
    expect(new Set(positions).size).toBe(positions.length);
  });
});

describe("claim candidates", () => {
  it("lists runs oldest first, at most 20 per workspace, and never a cancelled run", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, 1);
    const runs = [];
    for (let i = 0; i < 22; i++) runs.push(await startRun(ctx, suite.id, { concurrency: 1 }, "api"));
    await db.run.update({ where: { id: runs[0]!.id }, data: { cancelRequestedAt: new Date() } });
    const { run: other } = await pendingRun(1, 1);
    const candidates = await claimCandidates(10);
    const mine = candidates.filter((c) => c.workspaceId === ctx.workspaceId).map((c) => c.key);
    expect(mine).toEqual(runs.slice(1, 21).map((r) => r.id));
    expect(candidates.map((c) => c.key)).toContain(other.id);
  });
});
