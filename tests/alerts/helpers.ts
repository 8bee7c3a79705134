import { db } from "@/lib/db";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { startRun } from "@/lib/runs/service";
import { finalizeRunIfDone } from "@/lib/runs/finalize";
import type { StartRunInput } from "@/lib/runs/schemas";

type Outcome = "passed" | "failed" | "error" | "skipped";

/**
 * Starts a run the way the API does (selection key included), then writes each case's outcome
 * by case name (default passed) and finalizes it as the executor would: totals, status,
 * regression check and webhook events. No model is called.
 */
export async function runWithOutcomes(
  ctx: WorkspaceContext,
  suiteId: string,
  outcomes: Record<string, Outcome> = {},
  selection: StartRunInput = {},
) {
  const run = await startRun(ctx, suiteId, selection, "api");
  const results = await db.caseResult.findMany({ where: { runId: run.id }, select: { id: true, name: true } });
  for (const r of results) {
    const status = outcomes[r.name] ?? "passed";
    await db.caseResult.update({
      where: { id: r.id },
      data: {
        status,
        completedAt: new Date(),
        startedAt: new Date(),
        ...(status === "error" ? { errorType: "agent", errorMessage: "boom" } : {}),
      },
    });
  }
  await finalizeRunIfDone(run.id);
  return db.run.findUniqueOrThrow({ where: { id: run.id } });
}
