import "server-only";
import { db } from "@/lib/db";
import { logger } from "@/lib/logger";
import { passRate } from "@/lib/runs/dto";
import { alertSelect, toAlertDto, type FlippedCase } from "@/lib/alerts/dto";
import { emitAlertRaised } from "@/lib/webhooks/events";
import { ORDINARY_RUN_WHERE } from "@/lib/runs/history";
import { causeOf, hashChanged, type RunDelta } from "@/lib/runs/changes";

/**
 * Regression alerting: after a plain run completes (manual, API or scheduled), compares its pass
 * rate with the suite's **baseline** and records a RegressionAlert when it dropped by at least
 * the suite's `alertThresholdPercent` — percentage points (90 % → 79 % is a drop of 11 points).
 * Called once per finished run, by its "run finished" subscriber (lib/run-finished-subscribers.ts).
 *
 * The baseline:
 * 1. the run the team pinned on the suite (`Suite.baselineRunId`), when it is completed, not a
 *    comparison arm, and ran the same case selection (`Run.selectionKey`) as this run;
 * 2. otherwise the previous completed run of the suite with the same selection key.
 * A run over another selection (other tags, difficulty or case ids) is never a baseline, and a
 * comparison's arm runs are experiments: they neither raise alerts nor serve as baselines. Runs
 * started before selection keys existed have no key and are never compared (nothing is
 * backfilled: their selection is not comparable with certainty).
 */

/** At most this many flipped cases are stored on one alert (the rest are only counted in the drop). */
export const MAX_FLIPPED_CASES = 1000;

type RunFacts = {
  id: string;
  number: number;
  agentHash: string | null;
  evalHash: string | null;
  status: string;
  comparisonId: string | null;
  selectionKey: string | null;
  createdAt: Date;
  passedCases: number;
  totalCases: number;
  skippedCases: number;
};

const runFacts = {
  id: true,
  number: true,
  agentHash: true,
  evalHash: true,
  status: true,
  comparisonId: true,
  selectionKey: true,
  createdAt: true,
  passedCases: true,
  totalCases: true,
  skippedCases: true,
} as const;

/** The baseline run for `current`, or null when there is none to compare with. */
export async function findBaseline(
  current: RunFacts,
  suite: { id: string; workspaceId: string; baselineRunId: string | null },
): Promise<RunFacts | null> {
  if (!current.selectionKey) return null;
  if (suite.baselineRunId && suite.baselineRunId !== current.id) {
    const pinned = await db.run.findFirst({
      where: { id: suite.baselineRunId, suiteId: suite.id, workspaceId: suite.workspaceId, status: "completed", ...ORDINARY_RUN_WHERE },
      select: runFacts,
    });
    if (pinned && pinned.selectionKey === current.selectionKey) return pinned;
  }
  return db.run.findFirst({
    where: {
      suiteId: suite.id,
      workspaceId: suite.workspaceId,
      status: "completed",
      ...ORDINARY_RUN_WHERE,
      selectionKey: current.selectionKey,
      id: { not: current.id },
      createdAt: { lt: current.createdAt },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: runFacts,
  });
}

/**
 * Cases that passed in the baseline and failed or errored in `runId`, by test case, in run order,
 * each with why (lib/runs/changes.ts): whether the case's content changed, and the cause given
 * what changed between the two runs as a whole.
 */
export async function flippedCases(runId: string, baselineRunId: string, delta: RunDelta): Promise<FlippedCase[]> {
  const rows = await db.$queryRaw<
    { test_case_id: string; case_result_id: string; name: string; from: string; to: string; case_changed: boolean }[]
  >`
    SELECT c."testCaseId"::text AS test_case_id, c."id"::text AS case_result_id, c."name", b."status"::text AS "from", c."status"::text AS "to",
           (b."caseHash" IS NOT NULL AND c."caseHash" IS NOT NULL AND b."caseHash" <> c."caseHash") AS case_changed
    FROM "CaseResult" c
    JOIN "CaseResult" b ON b."runId" = ${baselineRunId}::uuid AND b."testCaseId" = c."testCaseId"
      AND b."variant" = c."variant" AND b."repetition" = c."repetition"
    WHERE c."runId" = ${runId}::uuid AND c."variant" = 'baseline' AND c."testCaseId" IS NOT NULL
      AND b."status" = 'passed' AND c."status" IN ('failed', 'error')
    ORDER BY c."position"
    LIMIT ${MAX_FLIPPED_CASES}`;
  return rows.map((r) => ({
    test_case_id: r.test_case_id,
    name: r.name,
    from: "passed",
    to: r.to as "failed" | "error",
    case_result_id: r.case_result_id,
    case_changed: r.case_changed,
    cause: causeOf(r.case_changed, delta),
  }));
}

/**
 * Raises a regression alert when the pass rate dropped by at least the suite's threshold
 * (percentage points) against the baseline, then queues the `alert.raised` webhook event.
 * Returns the alert, or null when none was raised.
 */
export async function checkRegression(runId: string, suiteId: string, workspaceId: string) {
  const suite = await db.suite.findFirst({
    where: { id: suiteId, workspaceId },
    select: { id: true, workspaceId: true, name: true, alertOnRegression: true, alertThresholdPercent: true, baselineRunId: true },
  });
  if (!suite?.alertOnRegression) return null;
  const current = await db.run.findFirst({ where: { id: runId, suiteId, workspaceId }, select: runFacts });
  // A comparison's arm runs are experiments, not the suite's history: never alerted on.
  if (!current || current.status !== "completed" || current.comparisonId) return null;
  // A matrix's combination runs are experiments too (lib/matrices): never alerted on.
  if (await db.run.count({ where: { id: runId, workspaceId, matrixId: { not: null } } })) return null;
  const baseline = await findBaseline(current, suite);
  if (!baseline) return null;
  const now = passRate(current.passedCases, current.totalCases, current.skippedCases);
  const before = passRate(baseline.passedCases, baseline.totalCases, baseline.skippedCases);
  const drop = Math.round((before - now) * 10) / 10;
  if (drop <= 0 || drop < suite.alertThresholdPercent) return null;
  // One alert per run, also if a finalizer ever ran twice.
  if (await db.regressionAlert.findFirst({ where: { runId, workspaceId }, select: { id: true } })) return null;
  const delta: RunDelta = {
    agent_changed: hashChanged(baseline.agentHash, current.agentHash),
    evaluation_changed: hashChanged(baseline.evalHash, current.evalHash),
  };
  const flipped = await flippedCases(runId, baseline.id, delta);
  const row = await db.regressionAlert.create({
    data: {
      workspaceId,
      suiteId,
      runId,
      previousRunId: baseline.id,
      passRate: now,
      previousRate: before,
      dropPercent: drop,
      flippedCases: flipped,
      delta: { ...delta, baseline_run_number: baseline.number },
    },
    select: alertSelect,
  });
  logger.warn({ runId, suiteId, baselineRunId: baseline.id, drop, flipped: flipped.length }, "regression alert raised");
  const alert = toAlertDto(row);
  await emitAlertRaised(workspaceId, alert);
  return alert;
}
