/**
 * The retention cleanup (the reference schema's retention rules). A run is deleted — with its case results, LLM call logs and
 * alerts (database cascades) — when it is older than its suite's `retention_days` (the suite's
 * override, else the instance setting) and none of these keeps it:
 * - it is among the suite's newest `retention_runs` finished runs — completed, failed or
 *   cancelled alike ("the most recent 30 runs per suite are kept"; plain runs only,
 *   comparison arms are not the suite's run history and do not count);
 * - it is pending or running;
 * - it is a suite's pinned baseline (`Suite.baselineRunId`);
 * - an open (unacknowledged) regression alert refers to it (`runId` or `previousRunId`);
 * - it is an arm of a starred comparison.
 * An executed comparison goes as a whole (its arm runs, pairs and arms) once every arm run may
 * go, it is not starred and it has ended; otherwise all its arm runs stay.
 *
 * A cleanup that would delete more than half of all finished runs needs `confirm`
 * (./cleanup-guard.ts); the nightly one holds off instead.
 *
 * Work happens in batches (200 runs or 20 comparisons per transaction; the candidates are
 * recomputed in each one), so no lock is held for long and a concurrent change (a pin, a new
 * alert) is seen by the next batch. Every cleanup writes a CleanupRecord with its counts and a
 * size estimate (sum of pg_column_size over the deleted rows). The nightly one runs at
 * `retention_cleanup_time` **in UTC**, from a cron job of the job library, once per slot across
 * all processes: the record's unique `slot` is the claim.
 */
import "server-only";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { logger } from "@/lib/logger";
import { withoutWorkspaceScope } from "@/lib/tenant-scope";
import { mostRecentDueTime } from "@/lib/runs/schedule-slots";
import { getRetentionSettings, valuesOf } from "./service";
import { CleanupConfirmationRequired, cleanupNeedsConfirmation } from "./cleanup-guard";
import type { CleanupResult, RetentionValues } from "./dto";

export const RUN_BATCH = 200;
export const COMPARISON_BATCH = 20;

export type { CleanupResult } from "./dto";

export type CleanupOptions = {
  dryRun?: boolean;
  trigger?: "manual" | "schedule";
  /** The clock (defaults to the database's). */
  now?: Date;
  /** Instance values (defaults to the resolved settings; traffic_days too when absent). */
  settings?: Pick<RetentionValues, "days" | "runs"> & { traffic_days?: number };
  /** Go ahead even if more than half of all finished runs would be deleted. */
  confirm?: boolean;
};

/**
 * The runs that may go (`expired`: past their age and unprotected), the comparisons that go as a
 * whole, and `victims`: plain expired runs plus the arm runs of those comparisons.
 */
function candidatesSql(settings: Pick<RetentionValues, "days" | "runs">, now: Date) {
  return Prisma.sql`
    ranked AS (
      SELECT r."id", r."comparisonId", r."status", r."createdAt",
             coalesce(s."retentionDays", ${settings.days}::int) AS keep_days,
             coalesce(s."retentionRuns", ${settings.runs}::int) AS keep_runs,
             CASE WHEN r."status" IN ('completed', 'failed', 'cancelled') AND r."comparisonId" IS NULL THEN
               row_number() OVER (PARTITION BY r."suiteId", (r."status" IN ('completed', 'failed', 'cancelled') AND r."comparisonId" IS NULL)
                                  ORDER BY r."createdAt" DESC, r."id" DESC)
             END AS finished_rank
      FROM "Run" r JOIN "Suite" s ON s."id" = r."suiteId"
    ),
    expired AS (
      SELECT k."id", k."comparisonId", k."createdAt" FROM ranked k
      WHERE k."createdAt" < ${now}::timestamptz - make_interval(days => k.keep_days)
        AND k."status" NOT IN ('pending', 'running')
        AND (k.finished_rank IS NULL OR k.finished_rank > k.keep_runs)
        AND NOT EXISTS (SELECT 1 FROM "Suite" p WHERE p."baselineRunId" = k."id")
        AND NOT EXISTS (
          SELECT 1 FROM "RegressionAlert" a WHERE a."acknowledgedAt" IS NULL AND (a."runId" = k."id" OR a."previousRunId" = k."id")
        )
        AND NOT EXISTS (
          SELECT 1 FROM "ComparisonArm" ca JOIN "Comparison" c ON c."id" = ca."comparisonId" WHERE ca."runId" = k."id" AND c."starred"
        )
    ),
    doomed_comparisons AS (
      SELECT c."id", c."createdAt" FROM "Comparison" c
      WHERE NOT c."starred" AND c."status" NOT IN ('pending', 'running')
        AND EXISTS (SELECT 1 FROM "Run" r WHERE r."comparisonId" = c."id")
        AND NOT EXISTS (SELECT 1 FROM "Run" r WHERE r."comparisonId" = c."id" AND r."id" NOT IN (SELECT e."id" FROM expired e))
    ),
    victims AS (
      SELECT e."id", e."comparisonId", e."createdAt" FROM expired e
      WHERE e."comparisonId" IS NULL OR e."comparisonId" IN (SELECT d."id" FROM doomed_comparisons d)
    )`;
}

type Counts = { runs: number; results: number; llmCalls: number; bytes: number };
const zero = (): Counts => ({ runs: 0, results: 0, llmCalls: 0, bytes: 0 });
const add = (a: Counts, b: Counts): Counts => ({
  runs: a.runs + b.runs,
  results: a.results + b.results,
  llmCalls: a.llmCalls + b.llmCalls,
  bytes: a.bytes + b.bytes,
});

/** What deleting these runs and comparisons removes: rows counted, bytes estimated with pg_column_size. */
async function measure(client: Pick<Tx, "$queryRaw">, runIds: string[], comparisonIds: string[]): Promise<Counts> {
  if (runIds.length === 0 && comparisonIds.length === 0) return zero();
  const [row] = await client.$queryRaw<{ runs: number; results: number; calls: number; bytes: bigint }[]>`
    SELECT
      (SELECT count(*)::int FROM "Run" WHERE "id" = ANY(${runIds}::uuid[])) AS runs,
      (SELECT count(*)::int FROM "CaseResult" WHERE "runId" = ANY(${runIds}::uuid[])) AS results,
      (SELECT count(*)::int FROM "LlmCall" WHERE "runId" = ANY(${runIds}::uuid[])) AS calls,
      (SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM "Run" t WHERE t."id" = ANY(${runIds}::uuid[]))
      + (SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM "CaseResult" t WHERE t."runId" = ANY(${runIds}::uuid[]))
      + (SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM "LlmCall" t WHERE t."runId" = ANY(${runIds}::uuid[]))
      + (SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM "ComparisonPair" t WHERE t."comparisonId" = ANY(${comparisonIds}::uuid[]))
      + (SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM "Comparison" t WHERE t."id" = ANY(${comparisonIds}::uuid[]))
      AS bytes`;
  return { runs: row!.runs, results: row!.results, llmCalls: row!.calls, bytes: Number(row!.bytes) };
}

async function dbNow(): Promise<Date> {
  const [row] = await db.$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
  return row!.now;
}

export const TRAFFIC_BATCH = 500;

/** Traffic conversations whose last span is older than `days`, with their spans; one batch. Returns how many went. */
async function deleteTrafficBatch(days: number, now: Date): Promise<number> {
  const rows = await db.$queryRaw<{ n: number }[]>`
    WITH doomed AS (
      SELECT c."id", c."workspaceId", c."key" FROM "TrafficConversation" c
      WHERE c."endedAt" < ${now}::timestamptz - make_interval(days => ${days}::int)
      ORDER BY c."endedAt" LIMIT ${TRAFFIC_BATCH}
    ),
    spans AS (
      DELETE FROM "TrafficSpan" s USING doomed d WHERE s."workspaceId" = d."workspaceId" AND s."conversationKey" = d."key"
    ),
    gone AS (DELETE FROM "TrafficConversation" c USING doomed d WHERE c."id" = d."id" RETURNING 1)
    SELECT count(*)::int AS n FROM gone`;
  return rows[0]?.n ?? 0;
}

async function countExpiredTraffic(days: number, now: Date): Promise<number> {
  const rows = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM "TrafficConversation" WHERE "endedAt" < ${now}::timestamptz - make_interval(days => ${days}::int)`;
  return rows[0]?.n ?? 0;
}

/** Everything a cleanup would delete now (nothing is deleted). */
async function preview(settings: Pick<RetentionValues, "days" | "runs">, now: Date): Promise<Counts> {
  const cte = candidatesSql(settings, now);
  const runs = await db.$queryRaw<{ id: string }[]>`WITH ${cte} SELECT v."id" FROM victims v`;
  const comparisons = await db.$queryRaw<{ id: string }[]>`WITH ${cte} SELECT d."id" FROM doomed_comparisons d`;
  return measure(
    db,
    runs.map((r) => r.id),
    comparisons.map((c) => c.id),
  );
}

/** The refusal for a cleanup that would delete more than half of all finished runs, else null. */
async function unconfirmedMassDeletion(
  settings: Pick<RetentionValues, "days" | "runs">,
  now: Date,
): Promise<CleanupConfirmationRequired | null> {
  const [row] = await db.$queryRaw<{ doomed: number; finished: number }[]>`
    WITH ${candidatesSql(settings, now)}
    SELECT (SELECT count(*)::int FROM victims) AS doomed,
           (SELECT count(*)::int FROM "Run" WHERE "status" IN ('completed', 'failed', 'cancelled')) AS finished`;
  const { doomed, finished } = row!;
  return cleanupNeedsConfirmation(doomed, finished) ? new CleanupConfirmationRequired(doomed, finished) : null;
}

/** One transaction: the oldest plain runs that may go (at most RUN_BATCH), measured and deleted. */
async function deleteRunBatch(settings: Pick<RetentionValues, "days" | "runs">, now: Date): Promise<Counts> {
  return db.$transaction(
    async (tx) => {
      const batch = await tx.$queryRaw<{ id: string }[]>`
        WITH ${candidatesSql(settings, now)}
        SELECT v."id" FROM victims v WHERE v."comparisonId" IS NULL ORDER BY v."createdAt", v."id" LIMIT ${RUN_BATCH}`;
      const ids = batch.map((r) => r.id);
      if (ids.length === 0) return zero();
      const counts = await measure(tx, ids, []);
      // Cascades: case results, LLM calls, alerts; comparison arms that pointed here keep a null run.
      const deleted = await tx.$executeRaw`DELETE FROM "Run" WHERE "id" = ANY(${ids}::uuid[])`;
      return { ...counts, runs: deleted };
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
}

/** One transaction: up to COMPARISON_BATCH whole comparisons (arm runs, pairs, arms cascade with them). */
async function deleteComparisonBatch(settings: Pick<RetentionValues, "days" | "runs">, now: Date): Promise<Counts> {
  return db.$transaction(
    async (tx) => {
      const batch = await tx.$queryRaw<{ id: string }[]>`
        WITH ${candidatesSql(settings, now)}
        SELECT d."id" FROM doomed_comparisons d ORDER BY d."createdAt", d."id" LIMIT ${COMPARISON_BATCH}`;
      const ids = batch.map((r) => r.id);
      if (ids.length === 0) return zero();
      const runs = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Run" WHERE "comparisonId" = ANY(${ids}::uuid[])`;
      const counts = await measure(
        tx,
        runs.map((r) => r.id),
        ids,
      );
      await tx.$executeRaw`DELETE FROM "Comparison" WHERE "id" = ANY(${ids}::uuid[])`;
      return counts;
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
}

/**
 * Runs a cleanup now (or, with `dryRun`, measures what it would delete) and records it. Runs
 * outside any workspace scope: retention is instance-wide.
 */
export async function runCleanup(opts: CleanupOptions = {}, recordId?: string): Promise<CleanupResult> {
  return withoutWorkspaceScope(async () => {
    const dryRun = opts.dryRun ?? false;
    const now = opts.now ?? (await dbNow());
    const settings = opts.settings ?? valuesOf(await getRetentionSettings());
    const trafficDays = settings.traffic_days ?? (await getRetentionSettings()).traffic_days.value;
    const refusal = dryRun || opts.confirm ? null : await unconfirmedMassDeletion(settings, now);
    if (refusal) {
      // A claimed (nightly) record is closed with the reason; a manual call records nothing.
      if (recordId)
        await db.cleanupRecord.update({ where: { id: recordId }, data: { completedAt: new Date(), error: refusal.heldMessage } });
      throw refusal;
    }
    const record =
      recordId ?? (await db.cleanupRecord.create({ data: { trigger: opts.trigger ?? "manual", dryRun }, select: { id: true } })).id;
    let total = zero();
    let conversations = 0;
    try {
      if (dryRun) {
        total = await preview(settings, now);
        conversations = await countExpiredTraffic(trafficDays, now);
      } else {
        for (;;) {
          const counts = await deleteRunBatch(settings, now);
          total = add(total, counts);
          if (counts.runs === 0) break;
        }
        for (;;) {
          const counts = await deleteComparisonBatch(settings, now);
          total = add(total, counts);
          if (counts.runs === 0) break;
        }
        for (;;) {
          const n = await deleteTrafficBatch(trafficDays, now);
          conversations += n;
          if (n < TRAFFIC_BATCH) break;
        }
      }
      await db.cleanupRecord.update({
        where: { id: record },
        data: { ...recordCounts(total), conversationsDeleted: conversations, completedAt: new Date() },
      });
    } catch (err) {
      logger.error({ err, recordId: record }, "retention cleanup failed");
      await db.cleanupRecord
        .update({
          where: { id: record },
          data: { ...recordCounts(total), completedAt: new Date(), error: "Cleanup failed; see the server log" },
        })
        .catch(() => undefined);
      throw err;
    }
    const result: CleanupResult = {
      dry_run: dryRun,
      runs_deleted: total.runs,
      results_deleted: total.results,
      llm_calls_deleted: total.llmCalls,
      conversations_deleted: conversations,
      bytes_freed_estimate: total.bytes,
    };
    logger.info(
      { ...result, settings, trigger: opts.trigger ?? "manual" },
      dryRun ? "retention cleanup previewed" : "retention cleanup done",
    );
    return result;
  });
}

function recordCounts(c: Counts) {
  return { runsDeleted: c.runs, resultsDeleted: c.results, llmCallsDeleted: c.llmCalls, bytesFreedEstimate: BigInt(Math.round(c.bytes)) };
}

/**
 * The nightly cleanup, called every minute by the job library (lib/jobs/queues.ts, the
 * `nightly-cleanup` cron job) with the database clock: when the most recent `cleanup_time` slot
 * (UTC) has no record yet, the process whose INSERT wins the unique slot runs it; every other
 * process (and every later tick) skips it. A slot missed while everything was down runs once at
 * start-up. Returns null when nothing was due or another process has the slot.
 */
export async function runNightlyCleanupIfDue(at?: Date): Promise<CleanupResult | null> {
  return withoutWorkspaceScope(async () => {
    const now = at ?? (await dbNow());
    const settings = await getRetentionSettings();
    const slot = mostRecentDueTime({ type: "daily", time: settings.cleanup_time.value, dayOfWeek: null }, now, "UTC");
    if (!slot) return null;
    if (await db.cleanupRecord.findUnique({ where: { slot }, select: { id: true } })) return null;
    const claimed = await db.$queryRaw<{ id: string }[]>`
      INSERT INTO "CleanupRecord" ("id", "trigger", "dryRun", "slot", "startedAt")
      VALUES (gen_random_uuid(), 'schedule', false, ${slot}, now())
      ON CONFLICT ("slot") DO NOTHING
      RETURNING "id"`;
    if (claimed.length === 0) return null;
    try {
      return await runCleanup({ trigger: "schedule", now, settings: valuesOf(settings) }, claimed[0]!.id);
    } catch (err) {
      // Nobody is there to confirm a cleanup this large: its record says it was held.
      if (!(err instanceof CleanupConfirmationRequired)) throw err;
      logger.warn({ runsToDelete: err.runsToDelete, finishedRuns: err.finishedRuns }, "nightly retention cleanup held for confirmation");
      return null;
    }
  });
}
