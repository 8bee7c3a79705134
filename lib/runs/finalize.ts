import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";
import { db, type Tx } from "@/lib/db";
import { logger } from "@/lib/logger";
import type { RunSummary } from "@/lib/runs/dto";
import type { CostPart } from "@/lib/runs/cost";
import { runTrialSummary } from "@/lib/runs/trial-reads";
import { summaryCounts } from "@/lib/runs/summary-counts";
import { forgetRun } from "@/lib/runs/live-answers";
import { publishRunCannotProceed, publishRunFinished, type FinishedRun } from "@/lib/runs/run-finished";

/**
 * Options of the transactions that aggregate a whole run (totals, summary): a 100,000-case run
 * takes seconds there on a busy database, past Prisma's default 5 s, and a finalize that times
 * out is retried by every recovery tick, each time from the start.
 */
export const WHOLE_RUN_TX = { timeout: 120_000, maxWait: 10_000 } as const;

/**
 * Recomputes a run's totals from its case results — always consistent, also after recovery.
 * The row lock comes first so the aggregate (a new statement) sees every committed result.
 */
export async function refreshRunTotals(runId: string, tx?: Tx): Promise<void> {
  if (!tx) return db.$transaction((t: Tx) => refreshRunTotals(runId, t), WHOLE_RUN_TX);
  await tx.$queryRaw`SELECT 1 FROM "Run" WHERE "id" = ${runId}::uuid FOR NO KEY UPDATE`;
  await tx.$executeRaw`
    UPDATE "Run" r SET
      "passedCases" = t.passed, "failedCases" = t.failed, "skippedCases" = t.skipped, "errorCases" = t.errors,
      "promptTokens" = t.prompt, "completionTokens" = t.completion,
      "costBreakdown" = t.cost, "costUsd" = (t.cost->>'total')::float8
    FROM (
      SELECT count(*) FILTER (WHERE "status" = 'passed')::int AS passed,
             count(*) FILTER (WHERE "status" = 'failed')::int AS failed,
             count(*) FILTER (WHERE "status" = 'skipped')::int AS skipped,
             count(*) FILTER (WHERE "status" = 'error')::int AS errors,
             coalesce(sum("promptTokens"), 0)::int AS prompt,
             coalesce(sum("completionTokens"), 0)::int AS completion,
             ${RUN_COST_SQL} AS cost
      FROM "CaseResult" WHERE "runId" = ${runId}::uuid
    ) t
    WHERE r."id" = ${runId}::uuid`;
}

/** One part of the run's cost: the sum over the results that have a cost, unknown (null) when one of them does not know it. */
function costPartSql(part: CostPart | "total") {
  const value = Prisma.raw(`("costBreakdown"->>'${part}')`);
  return Prisma.sql`CASE WHEN bool_or(${value} IS NULL) FILTER (WHERE "costBreakdown" IS NOT NULL) THEN NULL
    ELSE round(sum(${value}::numeric), 9)::float8 END`;
}

/**
 * The run's cost breakdown ({agent, simulator, judge, total}, ./cost.ts) from its results' own:
 * null when no result has one (all skipped, or results written before costs existed).
 */
const RUN_COST_SQL = Prisma.sql`CASE WHEN count("costBreakdown") = 0 THEN NULL ELSE jsonb_build_object(
  'agent', ${costPartSql("agent")}, 'simulator', ${costPartSql("simulator")}, 'judge', ${costPartSql("judge")},
  'total', ${costPartSql("total")}) END`;

/**
 * Ends a run when no case is pending or running, with the execution model summary computed in SQL:
 * `cancelled` when a cancel was requested; `failed` with its `errorMessage` when the run could
 * not proceed at all (`failRun` recorded why, or every case that ran errored for one and the
 * same configuration reason); otherwise `completed`. Only one caller wins the update, and only it
 * publishes "run finished" (./run-finished.ts) once the transaction committed: webhooks, the
 * run's comparison or matrix and the regression check follow from there.
 */
export async function finalizeRunIfDone(runId: string) {
  const run = await db.$transaction(async (tx) => {
    // The row lock serialises finalizers; after it, every finished case is visible.
    const [locked] = await tx.$queryRaw<
      {
        status: string;
        suiteId: string;
        workspaceId: string;
        cancelled: boolean;
        errorMessage: string | null;
        comparisonId: string | null;
        matrixId: string | null;
        prepared: boolean;
      }[]
    >`
      SELECT "status"::text AS status, "suiteId", "workspaceId", ("cancelRequestedAt" IS NOT NULL) AS cancelled, "errorMessage", "comparisonId",
             "matrixId", ("preparedAt" IS NOT NULL) AS prepared
      FROM "Run" WHERE "id" = ${runId}::uuid FOR NO KEY UPDATE`;
    // A large run's later cases may still be being written (./batched-start.ts): not done yet.
    if (!locked || !["pending", "running"].includes(locked.status) || !locked.prepared) return null;
    const [open] = await tx.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "CaseResult" WHERE "runId" = ${runId}::uuid AND "status" IN ('pending', 'running')`;
    if ((open?.n ?? 0) > 0) return null;
    await refreshRunTotals(runId, tx);
    const summary = await computeSummary(runId, tx);
    const failure = locked.cancelled ? null : (locked.errorMessage ?? (await sharedConfigError(runId, tx)));
    const status: FinishedRun["status"] = locked.cancelled ? "cancelled" : failure ? "failed" : "completed";
    await tx.$executeRaw`
      UPDATE "Run" SET "status" = ${status}::"RunStatus", "completedAt" = now(), "startedAt" = coalesce("startedAt", now()),
        "summary" = ${JSON.stringify(summary)}::jsonb, "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
        "errorMessage" = ${failure}
      WHERE "id" = ${runId}::uuid`;
    return { ...locked, status, passRate: summary.executed_pass_rate };
  }, WHOLE_RUN_TX);
  if (!run) return false;
  // The live page's viewers share answers about a live run: the next read sees the final status.
  forgetRun(runId);
  logger[run.status === "failed" ? "warn" : "info"]({ runId, status: run.status, passRate: run.passRate }, "run finished");
  await publishRunFinished({
    runId,
    status: run.status,
    suiteId: run.suiteId,
    workspaceId: run.workspaceId,
    comparisonId: run.comparisonId,
    matrixId: run.matrixId,
    passRate: run.passRate,
  });
  return true;
}

/**
 * The one configuration reason shared by every case that ran, when each of them errored with it
 * (a missing simulator, an undecryptable key): the run as a whole could not proceed. Null
 * otherwise, also when no case ran at all.
 */
async function sharedConfigError(runId: string, tx: Tx): Promise<string | null> {
  const [row] = await tx.$queryRaw<{ ran: number; config: number; reasons: number; reason: string | null }[]>`
    SELECT count(*) FILTER (WHERE "status" <> 'skipped')::int AS ran,
           count(*) FILTER (WHERE "status" = 'error' AND "errorType" = 'config')::int AS config,
           count(DISTINCT "errorMessage") FILTER (WHERE "status" = 'error' AND "errorType" = 'config')::int AS reasons,
           min("errorMessage") FILTER (WHERE "status" = 'error' AND "errorType" = 'config') AS reason
    FROM "CaseResult" WHERE "runId" = ${runId}::uuid`;
  return row && row.ran > 0 && row.config === row.ran && row.reasons === 1 ? row.reason : null;
}

/**
 * Fails a run that cannot proceed (its agent or a model configuration is gone): the reason is
 * recorded, the cases not started yet are skipped, and the run ends `failed` as soon as the
 * cases still in flight on any worker have written their results.
 */
export async function failRun(runId: string, message: string): Promise<void> {
  const comparisonId = await db.$transaction(async (tx: Tx) => {
    const [locked] = await tx.$queryRaw<{ status: string; comparisonId: string | null }[]>`
      SELECT "status"::text AS status, "comparisonId" FROM "Run" WHERE "id" = ${runId}::uuid FOR NO KEY UPDATE`;
    if (!locked || !["pending", "running"].includes(locked.status)) return null;
    await tx.$executeRaw`
      UPDATE "CaseResult" SET "status" = 'skipped', "errorMessage" = ${`Not run: ${message}`}, "completedAt" = now()
      WHERE "runId" = ${runId}::uuid AND "status" = 'pending'`;
    await tx.$executeRaw`UPDATE "Run" SET "errorMessage" = coalesce("errorMessage", ${message}) WHERE "id" = ${runId}::uuid`;
    return locked.comparisonId;
  });
  logger.warn({ runId, reason: message }, "run cannot proceed");
  await finalizeRunIfDone(runId);
  // An arm of a comparison: the comparison stops its other arms (a subscriber, as for "run finished").
  await publishRunCannotProceed({ runId, comparisonId, message });
}

/**
 * The execution model's ReportSummary plus token totals and the A/B engine execution stats, aggregated in SQL.
 *
 * The counting (./summary-counts.ts, README "Run summary numbers"): a case result is passed,
 * failed, error or skipped. `total_tests` counts every result and `failed` every result that did
 * not pass, so `total_tests = passed + failed` as the execution model states; `not_met` (status failed),
 * `errors` and `skipped` break `failed` down. `pass_rate = passed / total_tests × 100` (the execution model),
 * `executed_pass_rate = passed / executed × 100` (the run's own pass rate, skipped results not
 * counted), and `weighted_pass_rate` the latter with every hard case weighing the suite's
 * `hardWeight` (the test case format difficulty weighting, default 2) and every normal case 1.
 */
export async function computeSummary(runId: string, client: Pick<Tx, "$queryRaw"> = db): Promise<RunSummary> {
  const [totals] = await client.$queryRaw<
    {
      total: number;
      passed: number;
      failed: number;
      skipped: number;
      errors: number;
      unfinished: number;
      duration: number;
      prompt: number;
      completion: number;
      retries: number;
      evaluator_retries: number;
      avg_latency: number | null;
      wall: number | null;
      hard_weight: number;
      weight_passed: number;
      weight_executed: number;
      trials: number;
    }[]
  >`
    SELECT count(c."id")::int AS total,
           count(*) FILTER (WHERE c."status" = 'passed')::int AS passed,
           count(*) FILTER (WHERE c."status" = 'failed')::int AS failed,
           count(*) FILTER (WHERE c."status" = 'skipped')::int AS skipped,
           count(*) FILTER (WHERE c."status" = 'error')::int AS errors,
           count(*) FILTER (WHERE c."status" IN ('pending', 'running'))::int AS unfinished,
           coalesce(sum(c."durationMs"), 0)::int AS duration,
           coalesce(sum(c."promptTokens"), 0)::int AS prompt,
           coalesce(sum(c."completionTokens"), 0)::int AS completion,
           coalesce(sum(c."retryCount"), 0)::int AS retries,
           coalesce(sum(c."evaluatorRetryCount"), 0)::int AS evaluator_retries,
           avg(c."latencyMs")::float AS avg_latency,
           (extract(epoch FROM (max(c."completedAt") - min(c."startedAt"))) * 1000)::int AS wall,
           min(s."hardWeight")::float AS hard_weight,
           coalesce(sum(CASE WHEN c."caseSnapshot"->>'difficulty' = 'hard' THEN s."hardWeight" ELSE 1 END)
             FILTER (WHERE c."status" = 'passed'), 0)::float AS weight_passed,
           coalesce(sum(CASE WHEN c."caseSnapshot"->>'difficulty' = 'hard' THEN s."hardWeight" ELSE 1 END)
             FILTER (WHERE c."status" IN ('passed', 'failed', 'error')), 0)::float AS weight_executed,
           min(r."trials")::int AS trials
    FROM "Run" r JOIN "Suite" s ON s."id" = r."suiteId"
    LEFT JOIN "CaseResult" c ON c."runId" = r."id"
    WHERE r."id" = ${runId}::uuid`;
  // Averages on the normalised 0..1 (results stored before thresholds moved to the metric's scale
  // have only `score`, already normalised), so runs with different scales stay comparable. A
  // metric that could not be evaluated (`error`) is neither counted as evaluated nor as failed.
  const metrics = await client.$queryRaw<{ name: string; n: number; avg: number | null; passed: number }[]>`
    SELECT m->>'metric_name' AS name, count(*) FILTER (WHERE m->>'error' IS NULL)::int AS n,
           avg(CASE WHEN m ? 'normalized_score' THEN (m->>'normalized_score')::float ELSE (m->>'score')::float END)::float AS avg,
           count(*) FILTER (WHERE m->>'error' IS NULL AND (m->>'passed')::boolean)::int AS passed
    FROM "CaseResult" c, jsonb_array_elements(c."metricResults") m
    WHERE c."runId" = ${runId}::uuid AND jsonb_typeof(c."metricResults") = 'array'
    GROUP BY 1 ORDER BY 1`;
  const calls = await client.$queryRaw<{ purpose: string; n: number; failed: number; retries: number; cached: number }[]>`
    SELECT "purpose", count(*)::int AS n, count(*) FILTER (WHERE "error" IS NOT NULL)::int AS failed,
           coalesce(sum(greatest("attempts" - 1, 0)), 0)::int AS retries, count(*) FILTER (WHERE "cached")::int AS cached
    FROM "LlmCall" WHERE "runId" = ${runId}::uuid GROUP BY 1 ORDER BY 1`;
  const errorTypes = await client.$queryRaw<{ type: string; n: number }[]>`
    SELECT "errorType" AS type, count(*)::int AS n FROM "CaseResult"
    WHERE "runId" = ${runId}::uuid AND "errorType" IS NOT NULL GROUP BY 1 ORDER BY 1`;
  const t = totals ?? {
    total: 0,
    passed: 0,
    failed: 0,
    skipped: 0,
    errors: 0,
    unfinished: 0,
    duration: 0,
    prompt: 0,
    completion: 0,
    retries: 0,
    evaluator_retries: 0,
    avg_latency: null,
    wall: null,
    hard_weight: 2,
    weight_passed: 0,
    weight_executed: 0,
    trials: 1,
  };
  const invocations = calls.reduce((a, c) => a + c.n, 0);
  const failedInvocations = calls.reduce((a, c) => a + c.failed, 0);
  return {
    ...summaryCounts(t),
    weighted_pass_rate: t.weight_executed > 0 ? Math.round((t.weight_passed / t.weight_executed) * 1000) / 10 : 0,
    hard_weight: t.hard_weight ?? 2,
    total_duration_ms: t.duration,
    wall_time_ms: t.wall ?? 0,
    average_latency_ms: t.avg_latency === null ? null : Math.round(t.avg_latency),
    prompt_tokens: t.prompt,
    completion_tokens: t.completion,
    total_tokens: t.prompt + t.completion,
    retry_count: t.retries,
    evaluator_retry_count: t.evaluator_retries,
    metrics_evaluated: Object.fromEntries(metrics.map((m) => [m.name, m.n])),
    average_scores: Object.fromEntries(metrics.filter((m) => m.avg !== null).map((m) => [m.name, Math.round(m.avg! * 1000) / 1000])),
    metric_pass_rates: Object.fromEntries(metrics.map((m) => [m.name, m.n ? Math.round((m.passed / m.n) * 1000) / 10 : 0])),
    execution_stats: {
      total_invocations: invocations,
      successful_invocations: invocations - failedInvocations,
      failed_invocations: failedInvocations,
      retries: calls.reduce((a, c) => a + c.retries, 0),
      cached_calls: calls.reduce((a, c) => a + c.cached, 0),
      by_purpose: Object.fromEntries(calls.map((c) => [c.purpose, { invocations: c.n, failed: c.failed, retries: c.retries }])),
      errors_by_type: Object.fromEntries(errorTypes.map((e) => [e.type, e.n])),
    },
    ...(await runTrialSummary(runId, t.trials, client)),
  };
}
