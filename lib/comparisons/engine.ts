/**
 * The comparison side of the executor (the A/B engine). The executor claims a comparison's
 * pairs and runs their arms in order (lib/runs/executor.ts `claimPairs`/`runPair`); this module
 * records a pair the moment its arms finished and ends the comparison when its arm runs have
 * ended: pairs rebuilt from the case results, summary (statistics, ExecutionStats per arm,
 * verdict) computed once and stored.
 */
import "server-only";
import { LRUCache } from "lru-cache";
import { db, type Tx } from "@/lib/db";
import { logger } from "@/lib/logger";
import { finalizeRunIfDone, refreshRunTotals } from "@/lib/runs/finalize";
import { armRunIds, armStatsFromExecutions, armStatsFromResults, finishedPairs, refreshExecutedPairs, summaryOf } from "./pairs";
import type { StoredExecution } from "./dto";
import { emitComparisonFinished } from "@/lib/webhooks/events";

/** Live summaries are recomputed at most this often per comparison and process (the bootstrap is O(pairs)). */
const LIVE_SUMMARY_INTERVAL_MS = 3_000;
const lastLiveSummary = new LRUCache<string, number>({ max: 1000 });
const LIVE_RESAMPLES = 200;

/** Finished pairs are written in batches, at most this long after they finished. */
const RECORD_DELAY_MS = 250;
const queued = new Map<string, { positions: Set<number>; timer: NodeJS.Timeout }>();

/**
 * Queues the pairs at these positions for recording (called by the executor once all arms of a
 * pair have run). Pairs are written in batches a moment later — one set of statements per batch
 * instead of per pair keeps the event loop free while other pairs' agent calls are being timed —
 * and, every few seconds, a provisional summary of the pairs finished so far is stored so the
 * page's headline fills in while the comparison runs. Nothing is lost if the process dies before
 * a batch: the comparison's finish rebuilds every pair from the case results.
 */
export function recordPairs(comparisonId: string, positions: number[]) {
  let entry = queued.get(comparisonId);
  if (!entry) {
    entry = {
      positions: new Set(),
      timer: setTimeout(() => void flushPairs(comparisonId), RECORD_DELAY_MS),
    };
    queued.set(comparisonId, entry);
  }
  for (const p of positions) entry.positions.add(p);
}

async function flushPairs(comparisonId: string) {
  const entry = queued.get(comparisonId);
  queued.delete(comparisonId);
  if (!entry) return;
  try {
    await refreshExecutedPairs(comparisonId, [...entry.positions]);
    await storeLiveSummary(comparisonId);
  } catch (err) {
    logger.error({ err, comparisonId }, "could not record finished pairs");
  }
}

/** The provisional summary, at most every few seconds per comparison and process. */
async function storeLiveSummary(comparisonId: string) {
  const now = Date.now();
  if (now - (lastLiveSummary.get(comparisonId) ?? 0) < LIVE_SUMMARY_INTERVAL_MS) return;
  lastLiveSummary.set(comparisonId, now);
  const pairs = await finishedPairs(db, comparisonId);
  const arm = (i: 0 | 1) => armStatsFromExecutions(pairs.map((p) => p.executions[i]).filter((e): e is StoredExecution => !!e));
  // Provisional: 200 bootstrap resamples instead of 2,000 keep this off the event loop (it runs
  // between agent calls whose latency is being measured); the final summary uses the full count.
  const summary = summaryOf(pairs, [arm(0), arm(1)], { resamples: LIVE_RESAMPLES });
  await db.$executeRaw`
    UPDATE "Comparison" SET "summary" = ${JSON.stringify(summary)}::jsonb
    WHERE "id" = ${comparisonId}::uuid AND "status" IN ('pending', 'running')`;
}

/** Ends the arm runs that have nothing in flight (after a cancel), then the comparison if all ended. */
export async function finishArmRuns(comparisonId: string) {
  const runs = await db.run.findMany({ where: { comparisonId, status: { in: ["pending", "running"] } }, select: { id: true } });
  for (const r of runs) {
    await refreshRunTotals(r.id);
    await finalizeRunIfDone(r.id);
  }
  await finishComparisonIfDone(comparisonId);
}

/**
 * An arm cannot run at all (its agent or model configuration was deleted): the other arms stop
 * too — a comparison with one arm is no comparison. Their pending cases are skipped.
 */
export async function failSiblingArms(comparisonId: string, message: string) {
  await db.$transaction(async (tx: Tx) => {
    // The comparison's row first, as a cancel and a pair claim take it: writers of several arm
    // runs queue on it, instead of locking the same runs in opposite orders (a deadlock).
    await tx.$queryRaw`SELECT 1 FROM "Comparison" WHERE "id" = ${comparisonId}::uuid FOR NO KEY UPDATE`;
    await tx.$executeRaw`
      UPDATE "CaseResult" c SET "status" = 'skipped', "errorMessage" = ${`Not run: ${message}`}, "completedAt" = now()
      FROM "Run" r WHERE r."id" = c."runId" AND r."comparisonId" = ${comparisonId}::uuid AND c."status" = 'pending'`;
    await tx.$executeRaw`
      UPDATE "Run" SET "errorMessage" = coalesce("errorMessage", ${message})
      WHERE "comparisonId" = ${comparisonId}::uuid AND "status" IN ('pending', 'running')`;
  });
  await finishArmRuns(comparisonId);
}

/**
 * Ends the comparison once none of its arm runs is pending or running: rebuilds every pair from
 * the case results (so pairs recovered after a worker died are counted too), computes the summary
 * and sets `completed`, `cancelled` (a cancel was requested, or an arm run was cancelled) or
 * `failed` (an arm run failed; its reason is kept). Only one caller wins (row lock).
 */
export async function finishComparisonIfDone(comparisonId: string): Promise<boolean> {
  const done = await db.$transaction(
    async (tx: Tx) => {
      const [locked] = await tx.$queryRaw<{ status: string; cancelled: boolean }[]>`
        SELECT "status"::text AS status, ("cancelRequestedAt" IS NOT NULL) AS cancelled FROM "Comparison" WHERE "id" = ${comparisonId}::uuid FOR NO KEY UPDATE`;
      if (!locked || !["pending", "running"].includes(locked.status)) return null;
      const arms = await tx.$queryRaw<{ status: string; errorMessage: string | null }[]>`
        SELECT r."status"::text AS status, r."errorMessage" FROM "ComparisonArm" a JOIN "Run" r ON r."id" = a."runId"
        WHERE a."comparisonId" = ${comparisonId}::uuid ORDER BY a."index"`;
      if (arms.length === 0 || arms.some((a) => a.status === "pending" || a.status === "running")) return null;
      const rows = await refreshExecutedPairs(comparisonId, undefined, tx);
      const runIds = await armRunIds(tx, comparisonId);
      const pairs = await finishedPairs(tx, comparisonId);
      const summary = summaryOf(pairs, [armStatsFromResults(rows, runIds[0]!), armStatsFromResults(rows, runIds[1]!)]);
      const failed = arms.find((a) => a.status === "failed");
      const status = locked.cancelled || arms.some((a) => a.status === "cancelled") ? "cancelled" : failed ? "failed" : "completed";
      const errorMessage = status === "failed" ? (failed?.errorMessage ?? "An arm of the comparison failed") : null;
      await tx.$executeRaw`
        UPDATE "Comparison" SET "status" = ${status}::"ComparisonStatus", "summary" = ${JSON.stringify(summary)}::jsonb,
          "errorMessage" = ${errorMessage}, "completedAt" = now(), "startedAt" = coalesce("startedAt", now())
        WHERE "id" = ${comparisonId}::uuid`;
      return { status, pairs: pairs.length };
    },
    { timeout: 120_000 },
  );
  if (!done) return false;
  lastLiveSummary.delete(comparisonId);
  // Every pair was just rebuilt: a batch still queued has nothing left to write.
  const pending = queued.get(comparisonId);
  if (pending) {
    clearTimeout(pending.timer);
    queued.delete(comparisonId);
  }
  logger.info({ comparisonId, ...done }, "comparison finished");
  await emitComparisonFinished(comparisonId, done.status); // comparison.completed webhooks; never throws
  return true;
}
