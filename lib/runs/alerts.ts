import "server-only";
import { db } from "@/lib/db";
import { logger } from "@/lib/logger";
import { passRate } from "@/lib/runs/dto";

/**
 * Regression alerting: after a run completes, compares its pass rate with the suite's previous
 * completed run and records a RegressionAlert when it dropped by at least the suite's threshold.
 * Called by finalizeRunIfDone (lib/runs/finalize.ts) once per finished run.
 */

/** Raises a regression alert when the pass rate dropped by at least the suite's threshold (percentage points). */
export async function checkRegression(runId: string, suiteId: string, workspaceId: string) {
  const suite = await db.suite.findFirst({
    where: { id: suiteId, workspaceId },
    select: { alertOnRegression: true, alertThresholdPercent: true },
  });
  if (!suite?.alertOnRegression) return;
  const [current, previous] = await db.run.findMany({
    // A comparison's arm runs are experiments, not the suite's history: never a baseline for an alert.
    where: { suiteId, workspaceId, status: "completed", completedAt: { not: null }, comparisonId: null },
    orderBy: { createdAt: "desc" },
    take: 2,
    select: { id: true, passedCases: true, totalCases: true, skippedCases: true },
  });
  if (!current || current.id !== runId || !previous) return;
  const now = passRate(current.passedCases, current.totalCases, current.skippedCases);
  const before = passRate(previous.passedCases, previous.totalCases, previous.skippedCases);
  const drop = Math.round((before - now) * 10) / 10;
  if (drop >= suite.alertThresholdPercent) {
    await db.regressionAlert.create({
      data: { workspaceId, suiteId, runId, previousRunId: previous.id, passRate: now, previousRate: before, dropPercent: drop },
    });
    logger.warn({ runId, suiteId, drop }, "regression alert raised");
  }
}
