// Cancelling a comparison while its arm runs end or fail: the transactions involved take the
// comparison's row, the arm runs' rows and their case results, and must never wait for each other
// in a cycle. PostgreSQL breaks such a cycle by failing one of them ("deadlock detected"), which
// the cancel's caller would see as a 500. No executor runs here: the tests drive the interleaving.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { cancelComparison, createComparison, getComparison } from "@/lib/comparisons/service";
import { failSiblingArms } from "@/lib/comparisons/engine";
import { refreshRunTotals } from "@/lib/runs/finalize";
import { ConflictError } from "@/lib/errors";
import { makeModelConfig, makeSuiteWithCases, makeWorkspace, waitFor } from "../helpers/factories";

/** A pending comparison of two arms over `cases` cases (nothing executes it in this file). */
async function pendingComparison(cases: number) {
  const { ctx } = await makeWorkspace("editor");
  const { suite } = await makeSuiteWithCases(ctx, cases, { baseUrl: "http://127.0.0.1:9/v1" });
  const variantModel = await makeModelConfig(ctx.workspaceId, { baseUrl: "http://127.0.0.1:9/v1", model: "other" });
  const comparison = await createComparison(ctx, suite.id, { baseline: {}, variant: { model_config_id: variantModel.id } });
  const runs = await db.run.findMany({ where: { comparisonId: comparison.id }, orderBy: { armIndex: "asc" }, select: { id: true } });
  return { ctx, comparison, runIds: runs.map((r) => r.id) };
}

/** True once a statement containing `fragment` waits for a lock held by another transaction. */
async function waitsForLock(fragment: string): Promise<boolean> {
  const rows = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE "wait_event_type" = 'Lock' AND "query" LIKE ${`%${fragment}%`}`;
  return (rows[0]?.n ?? 0) > 0;
}

describe("cancelling a comparison while its arms end", () => {
  it("does not deadlock with an arm run whose totals are written twice in one transaction (as finalizing does)", async () => {
    const { ctx, comparison, runIds } = await pendingComparison(2);
    let cancelled: ReturnType<typeof cancelComparison> | undefined;
    await db.$transaction(
      async (tx) => {
        // The arm's row is locked and written, as a finalizer does first …
        await refreshRunTotals(runIds[1]!, tx);
        // … the cancel takes the comparison's row and waits for the arm's …
        cancelled = cancelComparison(ctx, comparison.id);
        cancelled.catch(() => {}); // awaited below; no unhandled rejection meanwhile
        await waitFor(() => waitsForLock(`"cancelRequestedAt" = coalesce("cancelRequestedAt", now())`), Boolean, 10_000);
        // … and the arm's row is written again. The row was written by this transaction, so
        // PostgreSQL checks its foreign keys, the comparison among them (a key-share lock): a
        // cancel holding the comparison FOR UPDATE made the two wait for each other.
        await refreshRunTotals(runIds[1]!, tx);
      },
      { timeout: 20_000 },
    );
    const result = await cancelled!;
    expect(result.status).toBe("cancelled");
    const runs = await db.run.findMany({ where: { comparisonId: comparison.id }, select: { status: true } });
    expect(runs.map((r) => r.status)).toEqual(["cancelled", "cancelled"]);
    expect(await db.caseResult.count({ where: { runId: { in: runIds }, status: { not: "skipped" } } })).toBe(0);
  });

  it("and a failed arm stopping its sibling at the same moment both complete, whichever goes first", async () => {
    // Each writes the case results and then the runs of both arms; without one lock taken first
    // they locked them in opposite orders (8 of 25 rounds deadlocked before the fix).
    for (let round = 0; round < 20; round++) {
      const { ctx, comparison, runIds } = await pendingComparison(6);
      const [cancel, fail] = await Promise.allSettled([cancelComparison(ctx, comparison.id), failSiblingArms(comparison.id, "gone")]);
      expect(fail.status, `round ${round}: stopping the sibling arms`).toBe("fulfilled");
      // The cancel may find the comparison already ended by the sibling's failure: a 409, not a 500.
      if (cancel.status === "rejected") expect(cancel.reason, `round ${round}: the cancel`).toBeInstanceOf(ConflictError);
      const after = await getComparison(ctx, comparison.id);
      expect(["cancelled", "failed"], `round ${round}`).toContain(after.status);
      expect(await db.caseResult.count({ where: { runId: { in: runIds }, status: "pending" } }), `round ${round}`).toBe(0);
    }
  }, 60_000);
});
