import "server-only";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { logger } from "@/lib/logger";
import { alertSelect, toAlertDto, type FlippedCase } from "@/lib/alerts/dto";
import { emitAlertRaised } from "@/lib/webhooks/events";
import { ORDINARY_RUN_WHERE } from "@/lib/runs/history";
import { causeOf, hashChanged, type RunDelta } from "@/lib/runs/changes";
import { historyFlipRates } from "@/lib/runs/trial-reads";

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
 * A result's effective status in SQL (alias `c`): its human verdict when a review gave it one,
 * else the judge's. Alerts compare effective statuses, so a judge verdict a reviewer overturned
 * in the baseline (or in the run) no longer counts.
 */
const EFFECTIVE_PASSED = Prisma.sql`coalesce(c."humanVerdict" = 'pass', c."status" = 'passed')`;
const EFFECTIVE_FAILED = Prisma.sql`coalesce(c."humanVerdict" = 'fail', c."status" = 'failed')`;
const EFFECTIVE_STATUS = Prisma.sql`(CASE c."humanVerdict" WHEN 'pass' THEN 'passed' WHEN 'fail' THEN 'failed' ELSE c."status"::text END)`;

/**
 * A case is flaky by its history when its verdict flipped this often over its last
 * FLAKY_HISTORY_WINDOW judged results before the run (at least FLAKY_HISTORY_MIN of them).
 */
export const FLAKY_FLIP_RATE = 0.3;
export const FLAKY_HISTORY_WINDOW = 10;
export const FLAKY_HISTORY_MIN = 3;

/**
 * Cases that did worse in `runId` than in the baseline, by test case, in run order: the baseline
 * passed at least one trial, and the run passed a smaller share of its executed trials (with one
 * trial: passed → failed or error). Each names the run's first trial that did not pass and why
 * (lib/runs/changes.ts). A case flaky in either run (it both passed and failed there) or by its
 * history before this run (flip rate ≥ FLAKY_FLIP_RATE over its last FLAKY_HISTORY_WINDOW judged
 * results) is `flaky`: listed apart, not a regression.
 */
export async function flippedCases(
  runId: string,
  baselineRunId: string,
  workspaceId: string,
  delta: RunDelta,
): Promise<{ regressions: FlippedCase[]; flaky: FlippedCase[] }> {
  const rows = await db.$queryRaw<
    { test_case_id: string; case_result_id: string; name: string; to: string; case_changed: boolean; mixed: boolean }[]
  >`
    WITH per_case AS (
      SELECT c."runId", c."testCaseId", min(c."position") AS pos, min(c."name") AS name, min(c."caseHash") AS hash,
             count(*) FILTER (WHERE ${EFFECTIVE_PASSED}) AS passed,
             count(*) FILTER (WHERE ${EFFECTIVE_FAILED}) AS failed,
             count(*) FILTER (WHERE c."status" IN ('passed', 'failed', 'error')) AS executed,
             (array_agg(c."id"::text ORDER BY c."repetition") FILTER (WHERE c."status" IN ('passed', 'failed', 'error') AND NOT ${EFFECTIVE_PASSED}))[1] AS worst_id,
             (array_agg(${EFFECTIVE_STATUS} ORDER BY c."repetition") FILTER (WHERE c."status" IN ('passed', 'failed', 'error') AND NOT ${EFFECTIVE_PASSED}))[1] AS worst
      FROM "CaseResult" c
      WHERE c."runId" IN (${runId}::uuid, ${baselineRunId}::uuid) AND c."variant" = 'baseline' AND c."testCaseId" IS NOT NULL
      GROUP BY c."runId", c."testCaseId"
    )
    SELECT cur."testCaseId"::text AS test_case_id, cur.worst_id AS case_result_id, cur.name, cur.worst AS "to",
           (b.hash IS NOT NULL AND cur.hash IS NOT NULL AND b.hash <> cur.hash) AS case_changed,
           ((cur.passed > 0 AND cur.failed > 0) OR (b.passed > 0 AND b.failed > 0)) AS mixed
    FROM per_case cur JOIN per_case b ON b."testCaseId" = cur."testCaseId" AND b."runId" = ${baselineRunId}::uuid
    WHERE cur."runId" = ${runId}::uuid AND b.passed > 0 AND cur.worst_id IS NOT NULL
      AND cur.passed::float / cur.executed < b.passed::float / b.executed
    ORDER BY cur.pos
    LIMIT ${MAX_FLIPPED_CASES}`;
  const steady = rows.filter((r) => !r.mixed).map((r) => r.test_case_id);
  const flipRates = await historyFlipRates(workspaceId, steady, {
    window: FLAKY_HISTORY_WINDOW,
    exceptRunId: runId,
    minResults: FLAKY_HISTORY_MIN,
  });
  const regressions: FlippedCase[] = [];
  const flaky: FlippedCase[] = [];
  for (const r of rows) {
    const flipped: FlippedCase = {
      test_case_id: r.test_case_id,
      name: r.name,
      from: "passed",
      to: r.to as "failed" | "error",
      case_result_id: r.case_result_id,
      case_changed: r.case_changed,
      cause: causeOf(r.case_changed, delta),
    };
    const rate = flipRates.get(r.test_case_id) ?? 0;
    if (r.mixed) flaky.push({ ...flipped, flaky: "trials" });
    else if (rate >= FLAKY_FLIP_RATE) flaky.push({ ...flipped, flaky: "history" });
    else regressions.push(flipped);
  }
  return { regressions, flaky };
}

/**
 * The run's pass@1 for the alert, in percent (one decimal): the mean over its executed cases of
 * the share of trials that passed (effective statuses: a human verdict counts over the judge's). An errored trial counts as not passing here (an agent that
 * starts erroring is a regression to be told about); with one trial per case this is the run's
 * pass rate. Null when nothing was executed.
 */
async function alertPassRate(runId: string): Promise<number | null> {
  const [row] = await db.$queryRaw<{ rate: number | null }[]>`
    SELECT avg(passed::float / executed) AS rate FROM (
      SELECT count(*) FILTER (WHERE ${EFFECTIVE_PASSED}) AS passed,
             count(*) FILTER (WHERE c."status" IN ('passed', 'failed', 'error')) AS executed
      FROM "CaseResult" c WHERE c."runId" = ${runId}::uuid
      GROUP BY coalesce(c."testCaseId"::text, c."caseSnapshot"->>'id')
    ) per_case WHERE executed > 0`;
  return row?.rate == null ? null : Math.round(row.rate * 1000) / 10;
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
  const [now, before] = [(await alertPassRate(current.id)) ?? 0, (await alertPassRate(baseline.id)) ?? 0];
  const drop = Math.round((before - now) * 10) / 10;
  if (drop <= 0 || drop < suite.alertThresholdPercent) return null;
  // One alert per run, also if a finalizer ever ran twice.
  if (await db.regressionAlert.findFirst({ where: { runId, workspaceId }, select: { id: true } })) return null;
  const delta: RunDelta = {
    agent_changed: hashChanged(baseline.agentHash, current.agentHash),
    evaluation_changed: hashChanged(baseline.evalHash, current.evalHash),
  };
  const { regressions, flaky } = await flippedCases(runId, baseline.id, workspaceId, delta);
  const row = await db.regressionAlert.create({
    data: {
      workspaceId,
      suiteId,
      runId,
      previousRunId: baseline.id,
      passRate: now,
      previousRate: before,
      dropPercent: drop,
      // One list: the flaky ones carry `flaky` and are shown apart (lib/alerts/dto.ts).
      flippedCases: [...regressions, ...flaky],
      delta: { ...delta, baseline_run_number: baseline.number },
    },
    select: alertSelect,
  });
  logger.warn(
    { runId, suiteId, baselineRunId: baseline.id, drop, flipped: regressions.length, flaky: flaky.length },
    "regression alert raised",
  );
  const alert = toAlertDto(row);
  await emitAlertRaised(workspaceId, alert);
  return alert;
}
