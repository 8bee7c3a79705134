/**
 * Large runs start at once: `startRun` (./service.ts) writes a run of more than `FIRST_BATCH_ROWS`
 * case results in batches. The run row is committed alone, then a read-only REPEATABLE READ
 * transaction exports a snapshot, and every batch is one transaction that imports it and inserts
 * the next range of positions. The first batch is committed before `startRun` answers, so the
 * executor claims the first cases within milliseconds whatever the run's size (one INSERT of
 * 10,000 rows took 1.6 s); the rest follow in the background while those run.
 *
 * Every batch reads the same snapshot, so the run holds exactly the cases, contents and positions
 * that one statement would have written at the start, whatever is edited meanwhile. Until the
 * last batch is in, the run's `preparedAt` is null (finalizing waits for it) and the writing
 * process holds the run's lease, renewed after every batch. A cancel stops the batches; a
 * writer that dies (its lease expires, or its process on this machine is gone) leaves a run that
 * recovery (./recovery.ts) fails with a reason, as no other process can recreate the snapshot.
 */
import "server-only";
import type pg from "pg";
import { db, pool, scopedPoolTransaction, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { logger } from "@/lib/logger";
import { withoutWorkspaceScope } from "@/lib/tenant-scope";
import { newLeaseOwnerId } from "@/lib/runs/lease-owner";
import { runSelect, type RunRow } from "@/lib/runs/dto";
import {
  CASE_RESULT_COLUMNS,
  CASE_SNAPSHOT_JOIN,
  caseResultValuesSql,
  caseSelectionSql,
  selectedCaseCountSql,
  type CaseResultInsert,
} from "@/lib/runs/prepare";
import { failRun, finalizeRunIfDone, refreshRunTotals, WHOLE_RUN_TX } from "@/lib/runs/finalize";
import type { ResolvedVariables } from "@/lib/runs/variables";

/** Runs of up to this many case results are written in one transaction, with the run. */
const FIRST_BATCH_ROWS = 250;
/**
 * A larger run's first batch holds two waves of its concurrency (at least this many rows, at
 * most FIRST_BATCH_ROWS): its first cases wait for that batch only (~0.25 ms a row), and the
 * batches after it double in size, each in before the cases ahead of it have run.
 */
const MIN_FIRST_BATCH_ROWS = 50;
/** Each later batch: ~0.1 ms a row, so a batch takes well under a second and the lease stays fresh. */
const BATCH_ROWS = 5_000;
/** The writer's lease on the run; renewed after every batch. */
const FILL_LEASE_MS = 30_000;

export type BatchedStart = {
  /** The run's concurrency: what its first batch is sized by. */
  concurrency: number;
  /** Writes the run row (status pending, `preparedAt` null, the lease set) and returns its id. */
  createRun: (tx: Tx, lease: { owner: string; expiresAt: Date }) => Promise<string>;
  /** Trial-major, baseline: what a plain run has (matrices and comparisons write theirs in one go). */
  insert: Omit<CaseResultInsert, "runId" | "order" | "variant">;
  /** Each selected case's resolved variables, by test case id (empty when the agent declares none). */
  perCase: Map<string, ResolvedVariables>;
};

export type BatchOptions = {
  firstRows?: number;
  batchRows?: number;
  /** Tests: awaited before each batch after the first. */
  beforeBatch?: (position: number) => Promise<void>;
};

let configured: BatchOptions = {};

/** A run of up to this many case results is written in one go, with its run row. */
export function firstBatchRows(): number {
  return configured.firstRows ?? FIRST_BATCH_ROWS;
}

/** The first batch of a larger run at `concurrency` (tests: `firstRows` as configured). */
function firstBatchFor(concurrency: number, opts: BatchOptions): number {
  return opts.firstRows ?? Math.min(FIRST_BATCH_ROWS, Math.max(MIN_FIRST_BATCH_ROWS, 2 * concurrency));
}

/** Tests: smaller batches and a hook before each later batch (null: the defaults again). */
export function configureBatchedStart(opts: BatchOptions | null) {
  configured = opts ?? {};
}

/**
 * Creates the run and commits its first batch of case results; the rest are written in the
 * background, in order. Returns the run row as written. On a failure before the first batch is
 * committed, the run row is deleted again: nothing half-written remains.
 */
export async function startRunInBatches(start: BatchedStart, opts: BatchOptions = configured): Promise<RunRow> {
  const owner = newLeaseOwnerId();
  const runId = await db.$transaction((tx) => start.createRun(tx, { owner, expiresAt: new Date(Date.now() + FILL_LEASE_MS) }));
  let exporter: pg.PoolClient | null = null;
  try {
    exporter = await pool.connect();
    await exporter.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const {
      rows: [exported],
    } = await exporter.query<{ id: string }>("SELECT pg_export_snapshot() AS id");
    // The run's size as the snapshot sees it (the batches number exactly these rows), counted on
    // the snapshot's own connection while the first batch is written: that batch is the first
    // cases of the first trial whatever the count, and a 100,000-case count takes ~70 ms.
    const { workspaceId, suiteId, selection, repetitions = 1 } = start.insert;
    const count = selectedCaseCountSql(workspaceId, suiteId, selection);
    const writer = new BatchWriter(runId, owner, exported!.id, start, repetitions);
    const firstRows = firstBatchFor(start.concurrency, opts);
    const [counted, first] = await Promise.allSettled([exporter.query<{ n: number }>(count.text, count.values), writer.write(firstRows)]);
    if (counted.status === "rejected") throw counted.reason;
    if (first.status === "rejected") throw first.reason;
    writer.counted(counted.value.rows[0]?.n ?? 0, firstRows);
    await writer.renew(first.value);
    const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: runSelect });
    const held = exporter;
    exporter = null;
    // The rest in the background: nobody awaits it; a failure fails the run.
    void withoutWorkspaceScope(() =>
      writer
        .writeRest(firstRows, opts.batchRows ?? BATCH_ROWS, opts.beforeBatch)
        .catch(async (err: unknown) => {
          logger.error({ err, runId }, "writing a run's remaining cases failed; failing the run");
          await failUnfinishedStart(runId, owner).catch(() => undefined); // else recovery does, when the lease expires
        })
        .finally(() => endSnapshot(held)),
    );
    return run;
  } catch (err) {
    if (exporter) await endSnapshot(exporter);
    await db.run
      .delete({ where: { id: runId } })
      .catch((e: unknown) => logger.error({ err: e, runId }, "could not remove a run that failed to start"));
    throw err;
  }
}

async function endSnapshot(client: pg.PoolClient) {
  let broken = false;
  await client.query("COMMIT").catch(() => {
    broken = true;
  });
  client.release(broken);
}

/**
 * Writes one run's batches under the exported snapshot and the run's lease, in position order:
 * trial by trial, each trial's cases in (sortOrder, id) order, each batch picking up after the
 * last case of the one before (a keyset read on the suite's (suiteId, sortOrder, id) index, so a
 * batch costs the same at the end of a 100,000-case run as at its start). Position = trial ×
 * cases + case index, as `insertCaseResults` numbers a run written in one go.
 */
class BatchWriter {
  /** The trial being written, the index of its next case, and the (sortOrder, id) of the last one written. */
  private trial = 0;
  private index = 0;
  private after: { sortOrder: number; id: string } | null = null;

  /** Selected cases in the snapshot: null until counted (the first batch is read meanwhile). */
  private cases: number | null = null;

  constructor(
    private readonly runId: string,
    private readonly owner: string,
    private readonly snapshot: string,
    private readonly start: BatchedStart,
    /** The trials of each case. */
    private readonly trials: number,
  ) {}

  /** Case results the run has in the snapshot. */
  get rows(): number {
    return (this.cases ?? 0) * this.trials;
  }

  /** The next position to write (= the rows written so far); before the count, still in the first trial. */
  get written(): number {
    return this.trial * (this.cases ?? 0) + this.index;
  }

  /**
   * The snapshot's count of cases, read beside the first batch of at most `firstRows`: that batch
   * must have read exactly min(firstRows, cases) of them, and ends the first trial if it read all.
   */
  counted(cases: number, firstRows: number) {
    if (this.index !== Math.min(firstRows, cases)) {
      throw new Error(`the first batch read ${this.index} cases, and the run's snapshot counts ${cases}`);
    }
    this.cases = cases;
    this.endTrialIfDone();
  }

  private endTrialIfDone() {
    if (this.cases !== null && this.index >= this.cases) {
      this.trial += 1;
      this.index = 0;
      this.after = null;
    }
  }

  /**
   * Inserts the next batch (at most `limit` rows, never across a trial) in one transaction on the
   * snapshot, with the cases' resolved variables; returns how many it inserted as not runnable.
   */
  async write(limit: number): Promise<number> {
    const take = this.cases === null ? limit : Math.min(limit, this.cases - this.index);
    if (take <= 0) return 0;
    const { workspaceId, suiteId, selection } = this.start.insert;
    const after = this.after
      ? Prisma.sql`AND (tc."sortOrder", tc."id") > (${this.after.sortOrder}::int, ${this.after.id}::uuid)`
      : Prisma.empty;
    const sql = Prisma.sql`
      WITH picked AS (
        SELECT tc."id", tc."sortOrder", (row_number() OVER (ORDER BY tc."sortOrder", tc."id") - 1)::int AS k
        FROM (SELECT tc."id", tc."sortOrder" FROM "TestCase" tc WHERE ${caseSelectionSql(workspaceId, suiteId, selection)} ${after}
              ORDER BY tc."sortOrder", tc."id" LIMIT ${take}::int) tc
      ), inserted AS (
        INSERT INTO "CaseResult" (${CASE_RESULT_COLUMNS})
        SELECT ${caseResultValuesSql(this.runId, "baseline", Prisma.sql`${this.written}::int + p.k`, Prisma.sql`${this.trial}::int`)}
        FROM picked p JOIN "TestCase" tc ON tc."id" = p."id"
        ${CASE_SNAPSHOT_JOIN}
        RETURNING "testCaseId", "status"::text AS status
      )
      SELECT i."testCaseId", i.status, last."sortOrder" AS "lastSort", last."id" AS "lastId"
      FROM inserted i CROSS JOIN (SELECT "sortOrder", "id" FROM picked ORDER BY k DESC LIMIT 1) last`;
    const { rows, skipped } = await scopedPoolTransaction(
      workspaceId,
      async (client) => {
        // Read the cases in index order, never sort the whole selection: statistics not yet
        // analysed after a large import (100,000 cases "estimated at 1 row") made the planner sort
        // every case to take 250, 110 ms instead of 0.3 ms. Transaction-local.
        await client.query("SET LOCAL enable_sort = off");
        const { rows } = await client.query<{ testCaseId: string; status: string; lastSort: number; lastId: string }>(sql.text, sql.values);
        // The snapshot holds `cases` cases: a batch short of `take` means the count and the read
        // disagree (the first batch, read before the count, is checked against it by `counted`).
        if (this.cases !== null && rows.length !== take)
          throw new Error(`a batch read ${rows.length} of ${take} cases from the run's snapshot`);
        const variables = rows.flatMap((r) => {
          const resolved = this.start.perCase.get(r.testCaseId);
          return resolved ? [{ test_case_id: r.testCaseId, resolved }] : [];
        });
        if (variables.length > 0) {
          await client.query(
            `UPDATE "CaseResult" c SET "resolvedVariables" = x.resolved
             FROM jsonb_to_recordset($2::jsonb) AS x(test_case_id uuid, resolved jsonb)
             WHERE c."runId" = $1::uuid AND c."testCaseId" = x.test_case_id AND c."repetition" = $3::int AND c."position" >= $4::int`,
            [this.runId, JSON.stringify(variables), this.trial, this.written],
          );
        }
        return { rows, skipped: rows.filter((r) => r.status === "skipped").length };
      },
      { snapshot: this.snapshot },
    );
    this.index += rows.length;
    if (rows.length > 0) this.after = { sortOrder: rows[0]!.lastSort, id: rows[0]!.lastId };
    this.endTrialIfDone();
    return skipped;
  }

  /**
   * The batches after the first (of `firstRows`): each twice the one before, up to `batchRows`.
   * Then the run marked prepared (and finalized, when its cases are all done already). Stops
   * early on a cancel or failure, and without a word when the lease was lost.
   */
  async writeRest(firstRows: number, batchRows: number, beforeBatch?: (position: number) => Promise<void>): Promise<void> {
    let skipped = 0;
    let size = firstRows;
    while (this.written < this.rows) {
      if (beforeBatch) await beforeBatch(this.written);
      const lease = await this.renew(skipped);
      if (lease === "lost") return;
      if (lease === "stopped") break;
      size = Math.min(batchRows, size * 2);
      skipped = await this.write(size);
    }
    await this.finish();
  }

  /**
   * Renews the lease and adds the last batch's not-runnable cases to the run's skipped count (the
   * live page shows it). "stopped" when the run was cancelled or failed meanwhile, "lost" when
   * the lease is not this writer's any more (recovery failed the run).
   */
  async renew(skipped: number): Promise<"held" | "stopped" | "lost"> {
    const { rows } = await pool.query<{ stopped: boolean }>(
      `UPDATE "Run" SET "leaseExpiresAt" = now() + $3::int * interval '1 millisecond', "skippedCases" = "skippedCases" + $4::int,
         "totalCases" = $5::int
       WHERE "id" = $1::uuid AND "leaseOwner" = $2 AND "preparedAt" IS NULL AND "status" IN ('pending', 'running')
       RETURNING ("cancelRequestedAt" IS NOT NULL OR "errorMessage" IS NOT NULL) AS stopped`,
      [this.runId, this.owner, FILL_LEASE_MS, skipped, this.rows],
    );
    if (rows.length === 0) return "lost";
    return rows[0]!.stopped ? "stopped" : "held";
  }

  /**
   * Every batch is in (or a cancel or failure stopped them): the run is prepared, its total is
   * what was written, cases of a run stopped meanwhile that were written after the stop are
   * skipped as its other pending cases were, and the run is finalized if nothing is left to run.
   */
  private async finish() {
    const finished = await db.$transaction(async (tx) => {
      const [run] = await tx.$queryRaw<{ cancelled: boolean; errorMessage: string | null }[]>`
        SELECT ("cancelRequestedAt" IS NOT NULL) AS cancelled, "errorMessage" FROM "Run"
        WHERE "id" = ${this.runId}::uuid AND "leaseOwner" = ${this.owner} AND "preparedAt" IS NULL FOR NO KEY UPDATE`;
      if (!run) return false;
      if (run.cancelled || run.errorMessage !== null) {
        const reason = run.cancelled ? "Run cancelled before this case started" : `Not run: ${run.errorMessage}`;
        await tx.$executeRaw`
          UPDATE "CaseResult" SET "status" = 'skipped', "errorMessage" = ${reason}, "completedAt" = now()
          WHERE "runId" = ${this.runId}::uuid AND "status" = 'pending'`;
      }
      await tx.$executeRaw`
        UPDATE "Run" SET "preparedAt" = now(), "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
          "totalCases" = (SELECT count(*)::int FROM "CaseResult" WHERE "runId" = ${this.runId}::uuid)
        WHERE "id" = ${this.runId}::uuid`;
      await refreshRunTotals(this.runId, tx);
      return true;
    }, WHOLE_RUN_TX);
    if (finished) await finalizeRunIfDone(this.runId);
  }
}

/** Why a run fails whose cases could not all be written. */
export const ABANDONED_START = "Assay stopped before it had written all of this run's cases; start the run again";

/**
 * Fails a run whose case writer stopped before the last batch (it failed, or recovery found its
 * lease expired or its process gone): no other process can write the rest from the same
 * snapshot. The run is marked prepared with the cases written, its pending cases are skipped and
 * it ends `failed` once those in flight are written. Only while `owner` still holds the run.
 */
export async function failUnfinishedStart(runId: string, owner: string | null): Promise<void> {
  const taken = await db.$executeRaw`
    UPDATE "Run" SET "preparedAt" = now(), "leaseOwner" = NULL, "leaseExpiresAt" = NULL,
      "totalCases" = (SELECT count(*)::int FROM "CaseResult" c WHERE c."runId" = "Run"."id")
    WHERE "id" = ${runId}::uuid AND "preparedAt" IS NULL AND "leaseOwner" IS NOT DISTINCT FROM ${owner}`;
  if (taken > 0) await failRun(runId, ABANDONED_START);
}
