/**
 * Recovery for the run executor (./executor.ts): cases whose worker died (its lease expired, or
 * its process on this machine is gone) go back to pending, or become errors after too many
 * attempts; cases of cancelled runs become skipped; runs left with nothing in progress are
 * finalized. Every executor runs this periodically, so a crashed worker's runs always finish.
 */
import "server-only";
import { db } from "@/lib/db";
import { logger } from "@/lib/logger";
import { finalizeRunIfDone, refreshRunTotals } from "@/lib/runs/finalize";
import { failUnfinishedStart } from "@/lib/runs/batched-start";
import { isLeaseOwnerDead, leaseOwnerHostPrefix } from "@/lib/runs/lease-owner";

/**
 * Puts cases of dead workers back to pending (or errors them after maxAttempts) and finalizes
 * orphaned runs. A run with a cancel request gets nothing back to run: its recovered (and any
 * still pending) cases become skipped, so the run ends `cancelled` instead of waiting for
 * cases no worker will ever claim (claims skip cancelled runs).
 */
export async function recoverExpiredCases({ workerId, maxAttempts }: { workerId: string; maxAttempts: number }) {
  await expireLeasesOfDeadOwners(workerId);
  await failAbandonedStarts(workerId);
  const expired = await db.$queryRaw<{ runId: string }[]>`
    UPDATE "CaseResult" c SET
      "status" = (CASE WHEN r."cancelRequestedAt" IS NOT NULL THEN 'skipped'
        WHEN c."attempts" >= ${maxAttempts} THEN 'error' ELSE 'pending' END)::"CaseResultStatus",
      "errorMessage" = CASE WHEN r."cancelRequestedAt" IS NOT NULL THEN 'Run cancelled while this case was running'
        WHEN c."attempts" >= ${maxAttempts} THEN 'The worker running this case stopped ' || c."attempts" || ' times'
        ELSE c."errorMessage" END,
      "errorType" = CASE WHEN r."cancelRequestedAt" IS NOT NULL THEN 'cancelled'
        WHEN c."attempts" >= ${maxAttempts} THEN 'worker_lost' ELSE c."errorType" END,
      "completedAt" = CASE WHEN r."cancelRequestedAt" IS NOT NULL OR c."attempts" >= ${maxAttempts} THEN now() ELSE NULL END,
      "stage" = CASE WHEN r."cancelRequestedAt" IS NULL AND c."attempts" < ${maxAttempts} THEN 'pending'::"CaseStage" ELSE c."stage" END,
      "leaseOwner" = NULL, "leaseExpiresAt" = NULL
    FROM "Run" r
    WHERE r."id" = c."runId" AND c."status" = 'running' AND c."leaseExpiresAt" < now()
    RETURNING c."runId"`;
  // Pending cases of a cancelled run (handed back by a shutdown racing the cancel) never run either.
  const orphaned = await db.$queryRaw<{ runId: string }[]>`
    UPDATE "CaseResult" c SET "status" = 'skipped', "errorMessage" = 'Run cancelled before this case started', "completedAt" = now()
    FROM "Run" r
    WHERE r."id" = c."runId" AND r."cancelRequestedAt" IS NOT NULL AND r."status" IN ('pending', 'running') AND c."status" = 'pending'
    RETURNING c."runId"`;
  const runIds = new Set([...expired, ...orphaned].map((r) => r.runId));
  // Runs left "running" (or cancelled mid-flight) with nothing in progress: finalize them. A run
  // whose cases are still being written is not stale: its writer ends it (or the step above fails it).
  const stale = await db.$queryRaw<{ id: string }[]>`
    SELECT r."id" FROM "Run" r
    WHERE r."status" IN ('pending', 'running') AND r."preparedAt" IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM "CaseResult" c WHERE c."runId" = r."id" AND c."status" IN ('pending', 'running'))
    LIMIT 50`;
  for (const r of stale) runIds.add(r.id);
  for (const runId of runIds) {
    if (expired.length) logger.warn({ runId, workerId }, "recovered cases from an expired lease");
    await refreshRunTotals(runId);
    await finalizeRunIfDone(runId);
  }
}

/**
 * Expires now the leases of owners on this machine whose process has exited (./lease-owner.ts
 * proves it), so that after a crash and restart their cases are recovered at once instead of
 * after the lease (30 s). Safe for exactly-once: a dead process can neither write its result
 * (persist needs the lease) nor run the case any more, so the case is never run twice at once;
 * the recovery below then treats it exactly like an expired lease (attempts, maxAttempts).
 * Only runs in progress are looked at, through the (runId, status) index.
 */
async function expireLeasesOfDeadOwners(workerId: string) {
  const owners = await db.$queryRaw<{ owner: string }[]>`
    SELECT DISTINCT c."leaseOwner" AS owner FROM "Run" r JOIN "CaseResult" c ON c."runId" = r."id"
    WHERE r."status" IN ('pending', 'running') AND c."status" = 'running'
      AND c."leaseOwner" LIKE ${`${leaseOwnerHostPrefix()}%`} AND c."leaseExpiresAt" >= now()`;
  const dead = owners.map((o) => o.owner).filter((owner) => isLeaseOwnerDead(owner, workerId));
  if (dead.length === 0) return;
  const released = await db.$executeRaw`
    UPDATE "CaseResult" SET "leaseExpiresAt" = now() - interval '1 millisecond'
    WHERE "status" = 'running' AND "leaseOwner" = ANY(${dead}::text[])`;
  logger.warn({ workerId, deadOwners: dead, cases: released }, "released the leases of exited workers on this machine");
}

/**
 * A large run whose cases were being written in batches when their writer stopped (its lease
 * expired, or its process on this machine exited) fails (./batched-start.ts). Looked up by a
 * partial index: runs still being written are few and short-lived.
 */
async function failAbandonedStarts(workerId: string) {
  const writing = await db.$queryRaw<{ id: string; owner: string | null; expired: boolean }[]>`
    SELECT "id", "leaseOwner" AS owner, ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < now()) AS expired
    FROM "Run" WHERE "preparedAt" IS NULL AND "status" IN ('pending', 'running')`;
  for (const run of writing) {
    if (!run.expired && !(run.owner && isLeaseOwnerDead(run.owner, workerId))) continue;
    logger.warn({ runId: run.id, owner: run.owner, workerId }, "a run's case writer stopped; failing the run");
    await failUnfinishedStart(run.id, run.owner);
  }
}
