// What the executor and claim tests share: a passed outcome for runners that only sleep, a run
// started on a fresh suite, and a run's case results counted by status.
import { db } from "@/lib/db";
import { errorOutcome, type CaseOutcome } from "@/lib/runs/executor";
import { startRun } from "@/lib/runs/service";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { makeSuiteWithCases, makeWorkspace } from "../helpers/factories";

/** A passed outcome with no calls, as a test runner returns it. */
export const passedOutcome = (): CaseOutcome => ({
  ...errorOutcome("none", ""),
  status: "passed",
  errorMessage: null,
  errorType: null,
  actualResponse: "ok",
});

/** A run of `count` cases at `concurrency`, started (all pending) in `ctx` or a new workspace. */
export async function pendingRun(count: number, concurrency: number, ctx?: WorkspaceContext) {
  const workspace = ctx ?? (await makeWorkspace("editor")).ctx;
  const { suite } = await makeSuiteWithCases(workspace, count);
  const run = await startRun(workspace, suite.id, { concurrency }, "api");
  return { ctx: workspace, run };
}

/** The run's case results counted by status, e.g. `{ passed: 2, pending: 3 }`. */
export async function statusCounts(runId: string) {
  const rows = await db.caseResult.groupBy({ by: ["status"], where: { runId }, _count: true });
  return Object.fromEntries(rows.map((r) => [r.status, r._count]));
}
