/**
 * The claim SQL of the run executor (./executor.ts): which runs and comparisons have work, and
 * the claims themselves, each of which marks cases `running` under a worker's lease inside one
 * transaction that holds the run's (or comparison's) row lock, so a run's concurrency, a
 * comparison's pairs and the workspace cap hold across every worker process and no case is
 * claimed twice. Separate from the loop so the SQL can be tested on its own
 * (tests/runs/claims.test.ts) and read without the scheduling around it.
 */
import "server-only";
import pg, { type PoolClient, type QueryResult } from "pg";
import { executorPool } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import { armOrder } from "@/lib/comparisons/ordering";
import type { ClaimCandidate } from "@/lib/runs/fair-share";
import type { CaseJob } from "@/lib/runs/execution-types";

/** Who claims, and on what terms: the lease a claim puts on its cases and the workspace cap. */
export type ClaimLease = {
  workerId: string;
  leaseMs: number;
  /** Cases of one workspace running at once across all processes; null: no cap. */
  workspaceMaxRunning: number | null;
};

/** How a comparison's pairs run, read with the claim. */
export type PairSettings = {
  comparisonId: string;
  ordering: "sequential" | "randomized" | "concurrent";
  seed: number;
  resetWindowMs: number;
};

/**
 * The claim's initial stage: `processing_files` when the case snapshot has files, else
 * `executing_agent` (the snapshot column is json, so its `files` is read without a cast).
 */
const INITIAL_STAGE_SQL = `(CASE WHEN json_typeof(c."caseSnapshot"->'files') = 'array' AND json_array_length(c."caseSnapshot"->'files') > 0
  THEN 'processing_files' ELSE 'executing_agent' END)::"CaseStage"`;

/**
 * What a claim sets on a case result `c` it takes: running under the worker's lease (both given
 * as SQL: a parameter or a literal), one more attempt, started now, at its initial stage.
 */
export function claimedCaseSet(workerIdSql: string, leaseMsSql: string): string {
  return `"status" = 'running', "leaseOwner" = ${workerIdSql}, "leaseExpiresAt" = now() + ${leaseMsSql}::int * interval '1 millisecond',
    "attempts" = c."attempts" + 1, "startedAt" = now(), "stage" = ${INITIAL_STAGE_SQL}`;
}

/** What a claim returns of each case result `c` it took: a CaseJob. */
export const CLAIMED_JOB_COLUMNS = `c."id" AS "caseResultId", c."runId", c."workspaceId", c."position", c."variant"::text AS variant,
  c."caseSnapshot", c."attempts", c."resolvedVariables"`;

/** First key of the per-workspace claim lock (`pg_advisory_xact_lock(int, int)`), "ASSY": keeps it apart from other advisory locks. */
const WORKSPACE_CLAIM_LOCK = 0x41535359;

/**
 * Runs and comparisons that could start work now, oldest first, at most 20 per workspace: each
 * with its demand (concurrency headroom across all workers, at most its pending work, which is
 * counted only up to `free`), the slots one unit takes and the cases it marks running. Arm runs
 * of a comparison are not candidates themselves. Advisory: `claimCases`/`claimPairs` check again
 * under their locks.
 */
export async function claimCandidates(free: number): Promise<ClaimCandidate[]> {
  const { rows } = await executorPool().query<ClaimCandidate>({
    name: "assay-claim-candidates",
    text: `WITH runs AS (
         SELECT r."id", 'run' AS kind, r."workspaceId", r."createdAt",
           least(r."concurrency" - (SELECT count(*) FROM "CaseResult" c WHERE c."runId" = r."id" AND c."status" = 'running'),
                 (SELECT count(*) FROM (SELECT 1 FROM "CaseResult" c WHERE c."runId" = r."id" AND c."status" = 'pending' LIMIT $1::int) p)) AS demand,
           1 AS slots, 1 AS cases
         FROM "Run" r
         WHERE r."status" IN ('pending', 'running') AND r."cancelRequestedAt" IS NULL AND r."errorMessage" IS NULL AND r."comparisonId" IS NULL
       ), comparisons AS (
         SELECT cmp."id", 'comparison' AS kind, cmp."workspaceId", cmp."createdAt",
           least(cmp."concurrency" - (SELECT count(DISTINCT c."position") FROM "Run" r JOIN "CaseResult" c ON c."runId" = r."id"
                                      WHERE r."comparisonId" = cmp."id" AND c."status" = 'running'),
                 (SELECT count(*) FROM (SELECT DISTINCT c."position" FROM "Run" r JOIN "CaseResult" c ON c."runId" = r."id"
                                        WHERE r."comparisonId" = cmp."id" AND r."errorMessage" IS NULL AND c."status" = 'pending' LIMIT $1::int) p)) AS demand,
           CASE WHEN cmp."ordering" = 'concurrent' THEN greatest(1, a.arms) ELSE 1 END AS slots, greatest(1, a.arms) AS cases
         FROM "Comparison" cmp, LATERAL (SELECT count(*)::int AS arms FROM "Run" WHERE "comparisonId" = cmp."id") a
         WHERE cmp."status" IN ('pending', 'running') AND cmp."cancelRequestedAt" IS NULL
       ), ranked AS (
         SELECT u.*, row_number() OVER (PARTITION BY u."workspaceId" ORDER BY u."createdAt", u."id") AS rank
         FROM (SELECT * FROM runs UNION ALL SELECT * FROM comparisons) u WHERE u.demand > 0
       )
       SELECT "id" AS key, kind, "workspaceId", demand::int AS demand, slots::int AS "slotsPerUnit", cases::int AS "casesPerUnit"
       FROM ranked WHERE rank <= 20 ORDER BY "createdAt", "id" LIMIT 500`,
    values: [free],
  });
  return rows;
}

/** Cases each candidate's workspace may still start under ASSAY_WORKSPACE_MAX_RUNNING (all processes). */
export async function workspaceHeadroomOf(candidates: ClaimCandidate[], workspaceMaxRunning: number): Promise<Map<string, number>> {
  const cap = workspaceMaxRunning;
  const ids = [...new Set(candidates.map((c) => c.workspaceId))];
  const { rows } = await executorPool().query<{ workspaceId: string; running: number }>(
    `SELECT r."workspaceId", count(*)::int AS running FROM "Run" r JOIN "CaseResult" c ON c."runId" = r."id"
     WHERE r."workspaceId" = ANY($1::uuid[]) AND r."status" IN ('pending', 'running') AND c."status" = 'running'
     GROUP BY r."workspaceId"`,
    [ids],
  );
  const running = new Map(rows.map((r) => [r.workspaceId, r.running]));
  return new Map(ids.map((id) => [id, Math.max(0, cap - (running.get(id) ?? 0))]));
}

/**
 * Under ASSAY_WORKSPACE_MAX_RUNNING: takes the workspace's claim lock (transaction-scoped, so it
 * works through PgBouncer in transaction mode) and returns how many more cases the workspace
 * may start, counted after the lock in a fresh READ COMMITTED snapshot — so the cap holds
 * across processes exactly like a run's concurrency does. Lock order: workspace, then run or
 * comparison row. Without a cap: no lock, no limit.
 */
async function lockWorkspaceHeadroom(client: PoolClient, workspaceId: string, workspaceMaxRunning: number | null): Promise<number> {
  if (workspaceMaxRunning === null) return Number.MAX_SAFE_INTEGER;
  await client.query(`SELECT pg_advisory_xact_lock(${WORKSPACE_CLAIM_LOCK}, hashtext($1))`, [workspaceId]);
  const {
    rows: [row],
  } = await client.query<{ running: number }>(
    `SELECT count(*)::int AS running FROM "Run" r JOIN "CaseResult" c ON c."runId" = r."id"
     WHERE r."workspaceId" = $1::uuid AND r."status" IN ('pending', 'running') AND c."status" = 'running'`,
    [workspaceId],
  );
  return Math.max(0, workspaceMaxRunning - (row?.running ?? 0));
}

/**
 * Claims whole pairs of a comparison: every pending case result at the same position of its
 * arm runs, under the comparison's row lock (so its concurrency, counted in pairs, holds
 * across workers). A sequential/randomized pair takes one slot, a concurrent pair one per arm.
 */
export async function claimPairs(
  lease: ClaimLease,
  comparisonId: string,
  freeSlots: number,
  workspaceId: string,
): Promise<{ pairs: CaseJob[][]; slots: number; settings: PairSettings }> {
  const none = { pairs: [], slots: 0, settings: { ordering: "sequential", seed: 0, resetWindowMs: 0, comparisonId } as PairSettings };
  const client = await executorPool().connect();
  try {
    await client.query("BEGIN");
    const workspaceRoom = await lockWorkspaceHeadroom(client, workspaceId, lease.workspaceMaxRunning);
    const {
      rows: [cmp],
    } = await client.query<{
      concurrency: number;
      status: string;
      cancelled: boolean;
      ordering: PairSettings["ordering"];
      seed: number;
      reset: number;
      arms: number;
    }>(
      `SELECT "concurrency", "status"::text AS status, ("cancelRequestedAt" IS NOT NULL) AS cancelled, "ordering"::text AS ordering, "seed",
              "resetWindowMs" AS reset, (SELECT count(*)::int FROM "Run" WHERE "comparisonId" = $1::uuid) AS arms
       FROM "Comparison" WHERE "id" = $1::uuid FOR NO KEY UPDATE`,
      [comparisonId],
    );
    if (!cmp || cmp.cancelled || !["pending", "running"].includes(cmp.status)) {
      await client.query("COMMIT");
      return none;
    }
    const perPair = cmp.ordering === "concurrent" ? Math.max(1, cmp.arms) : 1;
    const {
      rows: [busy],
    } = await client.query<{ n: number }>(
      `SELECT count(DISTINCT c."position")::int AS n FROM "Run" r JOIN "CaseResult" c ON c."runId" = r."id"
       WHERE r."comparisonId" = $1::uuid AND c."status" = 'running'`,
      [comparisonId],
    );
    // A claimed pair marks every arm running at once (what the workspace cap counts).
    const limit = Math.max(
      0,
      Math.min(Math.floor(freeSlots / perPair), cmp.concurrency - (busy?.n ?? 0), Math.floor(workspaceRoom / Math.max(1, cmp.arms))),
    );
    if (limit === 0) {
      await client.query("COMMIT");
      return none;
    }
    const { rows } = await client.query<CaseJob & { armIndex: number }>(
      `WITH picked AS (
         SELECT DISTINCT c."position" FROM "Run" r JOIN "CaseResult" c ON c."runId" = r."id"
         WHERE r."comparisonId" = $1::uuid AND r."errorMessage" IS NULL AND c."status" = 'pending'
         ORDER BY c."position" LIMIT $2::int
       ), claimed AS (
         UPDATE "CaseResult" c SET ${claimedCaseSet("$3", "$4")}
         FROM "Run" r, picked
         WHERE r."id" = c."runId" AND r."comparisonId" = $1::uuid AND c."position" = picked."position" AND c."status" = 'pending'
         RETURNING ${CLAIMED_JOB_COLUMNS}, r."armIndex" AS "armIndex"
       ), started AS (
         UPDATE "Run" SET "status" = 'running', "startedAt" = coalesce("startedAt", now())
         WHERE "comparisonId" = $1::uuid AND "status" = 'pending' AND EXISTS (SELECT 1 FROM claimed)
       ), cmp AS (
         UPDATE "Comparison" SET "status" = 'running', "startedAt" = coalesce("startedAt", now())
         WHERE "id" = $1::uuid AND "status" = 'pending' AND EXISTS (SELECT 1 FROM claimed)
       )
       SELECT * FROM claimed`,
      [comparisonId, limit, lease.workerId, lease.leaseMs],
    );
    await client.query("COMMIT");
    const byPosition = new Map<number, (CaseJob & { armIndex: number })[]>();
    for (const row of rows) {
      const group = byPosition.get(row.position) ?? [];
      group.push(row);
      byPosition.set(row.position, group);
    }
    const pairs = [...byPosition.values()].map((jobs) => {
      const order = armOrder(cmp.ordering, cmp.seed, jobs[0]!.position, cmp.arms);
      return jobs.sort((a, b) => order.indexOf(a.armIndex) - order.indexOf(b.armIndex));
    });
    const settings: PairSettings = { ordering: cmp.ordering, seed: cmp.seed, resetWindowMs: cmp.reset, comparisonId };
    return { pairs, slots: pairs.reduce((n, p) => n + (cmp.ordering === "concurrent" ? p.length : 1), 0), settings };
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/**
 * Claims up to `limit` pending cases of a run, respecting the run's concurrency (and the
 * workspace's cap, when set) across all workers, in one round trip: a claim follows every
 * finished case, and its round trips were a third of the time a freed slot waited for its next
 * case. The transaction goes to PostgreSQL as one simple-query message of statements:
 * - `BEGIN`;
 * - under ASSAY_WORKSPACE_MAX_RUNNING, the workspace's claim lock (as `lockWorkspaceHeadroom`
 *   takes it; lock order: workspace, then run);
 * - the run's row lock, which serialises claims across workers;
 * - the pick: a new statement, so a fresh READ COMMITTED snapshot that sees every case another
 *   worker claimed before the locks were granted. It counts the run's (and the workspace's)
 *   running cases, checks the run is live, not cancelled and not failing, and marks the picked
 *   cases `running` under this worker's lease;
 * - `COMMIT`.
 * Values are inlined as literals: the ids are checked to be UUIDs, the numbers are clamped
 * integers and the worker id is escaped.
 */
export async function claimCases(lease: ClaimLease, runId: string, limit: number, workspaceId: string): Promise<CaseJob[]> {
  if (!isUuid(runId) || !isUuid(workspaceId)) return [];
  const int = (n: number) => String(Number.isFinite(n) ? Math.min(2 ** 31 - 1, Math.max(0, Math.floor(n))) : 0);
  const cap = lease.workspaceMaxRunning;
  const workspaceRoom =
    cap === null
      ? ""
      : `, ${int(cap)} - (SELECT count(*) FROM "Run" r JOIN "CaseResult" c ON c."runId" = r."id"
           WHERE r."workspaceId" = '${workspaceId}' AND r."status" IN ('pending', 'running') AND c."status" = 'running')`;
  const statements = [
    "BEGIN",
    ...(cap === null ? [] : [`SELECT pg_advisory_xact_lock(${WORKSPACE_CLAIM_LOCK}, hashtext('${workspaceId}'))`]),
    `SELECT 1 FROM "Run" WHERE "id" = '${runId}' FOR NO KEY UPDATE`,
    `WITH run AS (
       SELECT "concurrency" FROM "Run"
       WHERE "id" = '${runId}' AND "status" IN ('pending', 'running') AND "cancelRequestedAt" IS NULL AND "errorMessage" IS NULL
     ), picked AS (
       SELECT "id" FROM "CaseResult" WHERE "runId" = '${runId}' AND "status" = 'pending'
       ORDER BY "position", "variant"
       LIMIT greatest(0, least(${int(limit)},
         coalesce((SELECT "concurrency" FROM run), 0) - (SELECT count(*) FROM "CaseResult" WHERE "runId" = '${runId}' AND "status" = 'running')
         ${workspaceRoom}))
       FOR UPDATE SKIP LOCKED
     ), claimed AS (
       -- By primary key: the LIMIT above is not a constant, so the planner counts on a tenth of the
       -- run's pending cases and, on a large run, would join them by reading the whole table.
       UPDATE "CaseResult" c SET ${claimedCaseSet(pg.escapeLiteral(lease.workerId), int(lease.leaseMs))}
       WHERE c."id" = ANY (ARRAY(SELECT "id" FROM picked))
       RETURNING ${CLAIMED_JOB_COLUMNS}
     ), started AS (
       UPDATE "Run" SET "status" = 'running', "startedAt" = coalesce("startedAt", now())
       WHERE "id" = '${runId}' AND "status" = 'pending' AND EXISTS (SELECT 1 FROM claimed)
     )
     SELECT * FROM claimed`,
    "COMMIT",
  ];
  const client = await executorPool().connect();
  try {
    const results = (await client.query(statements.join(";\n"))) as unknown as QueryResult<CaseJob>[];
    return results[statements.length - 2]!.rows;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
