/**
 * The run executor: claims pending case results, runs each through a `CaseRunner`
 * (./case-runner.ts), persists the result in one statement and finalizes the run; a heartbeat
 * extends leases and aborts cancelled cases, and recovery hands back cases of dead workers.
 * Started once per process by ./worker.ts (from lib/server-start.ts); tests build it directly.
 * Key rule: only the worker holding a case's lease may write it, so every case is recorded
 * exactly once and no run stays running. ./README.md maps the whole pipeline.
 */
import "server-only";
import pg, { type PoolClient, type QueryResult } from "pg";
import { db, executorPool } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import { logger } from "@/lib/logger";
import { runEvents } from "@/lib/runs/wakeup";
import { finalizeRunIfDone, refreshRunTotals } from "@/lib/runs/finalize";
import { isLeaseOwnerDead, leaseOwnerHostPrefix, newLeaseOwnerId } from "@/lib/runs/lease-owner";
import { ResultWriter } from "@/lib/runs/result-writer";
import { armOrder } from "@/lib/comparisons/ordering";
import { recordPairs } from "@/lib/comparisons/engine";
import type { CaseStage } from "@/lib/runs/dto";
import { shareSlots, type ClaimCandidate } from "@/lib/runs/fair-share";
import { errorOutcome, type CaseJob, type CaseOutcome, type CaseRunner, type RunContext } from "@/lib/runs/execution-types";

// What a runner receives and returns is declared in ./execution-types.ts; re-exported here
// because the executor's callers build runners against it.
export { errorOutcome } from "@/lib/runs/execution-types";
export type { AgentStats, CaseJob, CaseOutcome, CaseRunner, LlmCallRecord, RunContext, StageReporter } from "@/lib/runs/execution-types";

export type ExecutorOptions = {
  runner: CaseRunner;
  workerId?: string;
  /** Cases this process runs at once across all runs. */
  maxSlots?: number;
  pollMs?: number;
  leaseMs?: number;
  heartbeatMs?: number;
  /** A case is retried on another worker at most this many times after its worker died. */
  maxAttempts?: number;
  /**
   * Cases of one workspace running at once across all processes (ASSAY_WORKSPACE_MAX_RUNNING);
   * unset: no cap. Counted in SQL from `running` case results under a per-workspace advisory lock.
   */
  workspaceMaxRunning?: number | null;
  /**
   * Runs once at start, before the first claim, next to opening the pool's connections: the
   * worker warms the model-call path with it (lib/llm/warm-up.ts). Never fails the start.
   */
  warmUp?: () => Promise<void>;
};

export { MAX_RESPONSE_CHARS } from "@/lib/runs/result-writer";
/** The start-up warm-up (ExecutorOptions.warmUp) is given at most this long before claims begin. */
const WARM_UP_LIMIT_MS = 5_000;
/** Live stages are written at most this often, all pending ones in one statement. */
export const STAGE_FLUSH_MS = 250;

/**
 * The claim's initial stage: `processing_files` when the case snapshot has files, else
 * `executing_agent` (the snapshot column is json, so its `files` is read without a cast).
 */
const INITIAL_STAGE_SQL = `(CASE WHEN json_typeof(c."caseSnapshot"->'files') = 'array' AND json_array_length(c."caseSnapshot"->'files') > 0
  THEN 'processing_files' ELSE 'executing_agent' END)::"CaseStage"`;

/** First key of the per-workspace claim lock (`pg_advisory_xact_lock(int, int)`), "ASSY": keeps it apart from other advisory locks. */
const WORKSPACE_CLAIM_LOCK = 0x41535359;

/**
 * The run executor. Claims pending case results with `FOR UPDATE SKIP LOCKED` under a short
 * per-run row lock (so the run's concurrency bound holds across processes), runs them with a
 * lease that a heartbeat extends, writes each result the moment it finishes, and finalizes the
 * run when nothing is left. Expired leases (a dead worker) put cases back to pending; cancel
 * requests abort in-flight cases.
 */
export class Executor {
  readonly workerId: string;
  private readonly runner: CaseRunner;
  private readonly maxSlots: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly maxAttempts: number;
  private readonly workspaceMaxRunning: number | null;
  private readonly inFlight = new Map<string, { runId: string; controller: AbortController; done: Promise<void> }>();
  /** Slots taken by comparison pairs: a sequential pair takes one (its arms run one after the other), a concurrent pair one per arm. */
  private pairSlots = 0;
  private pairCases = 0;
  private readonly runCache = new Map<string, RunContext>();
  /** Slots this process holds per workspace and per run/comparison, for the tick's fair shares. */
  private readonly heldByWorkspace = new Map<string, number>();
  private readonly heldByKey = new Map<string, number>();
  /** Rotates the tie-break of the fair shares tick by tick (./fair-share.ts). */
  private turn = 0;
  /** Live stages reported since the last flush, by case result id (the latest wins). */
  private readonly pendingStages = new Map<string, CaseStage>();
  private readonly results: ResultWriter;
  private stageTimer: NodeJS.Timeout | null = null;
  private timers: NodeJS.Timeout[] = [];
  private running = false;
  private ticking = false;
  private tickAgain = false;
  private readonly onQueued = () => void this.tick();
  private readonly warmUpHook: (() => Promise<void>) | undefined;
  private started: Promise<void> = Promise.resolve();

  constructor(opts: ExecutorOptions) {
    this.runner = opts.runner;
    this.workerId = opts.workerId ?? newLeaseOwnerId();
    this.maxSlots = opts.maxSlots ?? 64;
    this.pollMs = opts.pollMs ?? 500;
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.heartbeatMs = opts.heartbeatMs ?? Math.max(50, Math.floor((opts.leaseMs ?? 30_000) / 4));
    this.maxAttempts = opts.maxAttempts ?? 3;
    this.results = new ResultWriter(this.workerId, { stopped: () => this.killed });
    this.workspaceMaxRunning = opts.workspaceMaxRunning ?? null;
    this.warmUpHook = opts.warmUp;
  }

  start() {
    if (this.running) return;
    this.running = true;
    runEvents.on("queued", this.onQueued);
    this.timers.push(setInterval(() => void this.tick(), this.pollMs));
    this.timers.push(setInterval(() => void this.heartbeat(), this.heartbeatMs));
    this.timers.push(setInterval(() => void this.recover(), Math.max(100, Math.min(this.leaseMs / 2, 2_000))));
    this.started = this.warmUp().then(() => this.recover());
    void this.started.then(() => this.tick());
    logger.info({ workerId: this.workerId }, "executor started");
  }

  /**
   * Opens the pool's connections before the first claim: a fresh process otherwise pays the
   * connection handshakes (SCRAM) on the event loop while the first wave of agent responses
   * arrives, which delays reading them and inflates their recorded latency.
   */
  private async warmUp() {
    const connections = Math.min(this.maxSlots, executorPool().options.max ?? 10);
    await Promise.all([
      ...Array.from({ length: connections }, () =>
        executorPool()
          .query("SELECT 1")
          .catch(() => undefined),
      ),
      // Bounded: claims wait for the warm-up, and a warm-up that hangs must not hold them back.
      this.warmUpHook
        ? Promise.race([
            this.warmUpHook().catch((err: unknown) => logger.warn({ err }, "executor warm-up failed")),
            new Promise<void>((resolve) => setTimeout(resolve, WARM_UP_LIMIT_MS).unref()),
          ])
        : undefined,
    ]);
  }

  /** Resolves once the start-up work (warm-up, first recovery) is done and claims may begin. */
  whenReady(): Promise<void> {
    return this.started;
  }

  /** Stops claiming; waits for in-flight cases up to `graceMs`, then aborts them and releases their leases. */
  async stop(graceMs = 10_000) {
    this.running = false;
    runEvents.off("queued", this.onQueued);
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.clearStages();
    const all = Promise.all([...this.inFlight.values()].map((f) => f.done));
    const timedOut = await Promise.race([all.then(() => false), sleep(graceMs).then(() => true)]);
    if (timedOut) {
      for (const f of this.inFlight.values()) f.controller.abort(new Error("worker shutting down"));
      await Promise.race([all, sleep(graceMs)]);
    }
  }

  /** Simulates a crash in tests: stops everything without writing or releasing anything. */
  kill() {
    this.running = false;
    runEvents.off("queued", this.onQueued);
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.clearStages();
    this.killed = true;
    for (const f of this.inFlight.values()) f.controller.abort(new Error("killed"));
  }
  private killed = false;

  get activeCases() {
    return this.inFlight.size;
  }

  /** Slots in use: plain cases plus comparison pairs (see `pairSlots`). */
  private get usedSlots() {
    return this.inFlight.size - this.pairCases + this.pairSlots;
  }

  async tick(): Promise<void> {
    if (!this.running) return;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = true;
    try {
      // No claim before the start-up work: a claim made meanwhile would meet cold code and pools.
      await this.started;
      do {
        this.tickAgain = false;
        await this.claimAndLaunch();
      } while (this.tickAgain && this.running);
    } catch (err) {
      logger.error({ err, workerId: this.workerId }, "executor tick failed");
    } finally {
      this.ticking = false;
    }
  }

  private async recover() {
    if (!this.running) return;
    try {
      await this.recoverExpired();
    } catch (err) {
      logger.error({ err, workerId: this.workerId }, "executor recovery failed");
    }
  }

  /**
   * Puts cases of dead workers back to pending (or errors them after maxAttempts) and finalizes
   * orphaned runs. A run with a cancel request gets nothing back to run: its recovered (and any
   * still pending) cases become skipped, so the run ends `cancelled` instead of waiting for
   * cases no worker will ever claim (claims skip cancelled runs).
   */
  async recoverExpired() {
    await this.expireLeasesOfDeadOwners();
    const expired = await db.$queryRaw<{ runId: string }[]>`
      UPDATE "CaseResult" c SET
        "status" = (CASE WHEN r."cancelRequestedAt" IS NOT NULL THEN 'skipped'
          WHEN c."attempts" >= ${this.maxAttempts} THEN 'error' ELSE 'pending' END)::"CaseResultStatus",
        "errorMessage" = CASE WHEN r."cancelRequestedAt" IS NOT NULL THEN 'Run cancelled while this case was running'
          WHEN c."attempts" >= ${this.maxAttempts} THEN 'The worker running this case stopped ' || c."attempts" || ' times'
          ELSE c."errorMessage" END,
        "errorType" = CASE WHEN r."cancelRequestedAt" IS NOT NULL THEN 'cancelled'
          WHEN c."attempts" >= ${this.maxAttempts} THEN 'worker_lost' ELSE c."errorType" END,
        "completedAt" = CASE WHEN r."cancelRequestedAt" IS NOT NULL OR c."attempts" >= ${this.maxAttempts} THEN now() ELSE NULL END,
        "stage" = CASE WHEN r."cancelRequestedAt" IS NULL AND c."attempts" < ${this.maxAttempts} THEN 'pending'::"CaseStage" ELSE c."stage" END,
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
    // Runs left "running" (or cancelled mid-flight) with nothing in progress: finalize them.
    const stale = await db.$queryRaw<{ id: string }[]>`
      SELECT r."id" FROM "Run" r
      WHERE r."status" IN ('pending', 'running')
        AND NOT EXISTS (SELECT 1 FROM "CaseResult" c WHERE c."runId" = r."id" AND c."status" IN ('pending', 'running'))
      LIMIT 50`;
    for (const r of stale) runIds.add(r.id);
    for (const runId of runIds) {
      if (expired.length) logger.warn({ runId, workerId: this.workerId }, "recovered cases from an expired lease");
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
  private async expireLeasesOfDeadOwners() {
    const owners = await db.$queryRaw<{ owner: string }[]>`
      SELECT DISTINCT c."leaseOwner" AS owner FROM "Run" r JOIN "CaseResult" c ON c."runId" = r."id"
      WHERE r."status" IN ('pending', 'running') AND c."status" = 'running'
        AND c."leaseOwner" LIKE ${`${leaseOwnerHostPrefix()}%`} AND c."leaseExpiresAt" >= now()`;
    const dead = owners.map((o) => o.owner).filter((owner) => isLeaseOwnerDead(owner, this.workerId));
    if (dead.length === 0) return;
    const released = await db.$executeRaw`
      UPDATE "CaseResult" SET "leaseExpiresAt" = now() - interval '1 millisecond'
      WHERE "status" = 'running' AND "leaseOwner" = ANY(${dead}::text[])`;
    logger.warn({ workerId: this.workerId, deadOwners: dead, cases: released }, "released the leases of exited workers on this machine");
  }

  /**
   * One tick: shares this process's free slots fairly between the runs and comparisons with work
   * (./fair-share.ts: the workspace holding the fewest slots first, then its run holding the
   * fewest, ties round-robin), then claims each share. A comparison's arm runs are claimed only
   * through the comparison: its pairs (ordering, reset window) are the unit of work.
   */
  private async claimAndLaunch() {
    const free = this.maxSlots - this.usedSlots;
    if (free <= 0) return;
    const candidates = await this.claimCandidates(free);
    if (candidates.length === 0) return;
    const workspaceHeadroom = this.workspaceMaxRunning === null ? undefined : await this.workspaceHeadroom(candidates);
    const shares = shareSlots({
      free,
      candidates,
      heldByWorkspace: this.heldByWorkspace,
      heldByKey: this.heldByKey,
      workspaceHeadroom,
      turn: this.turn++,
    });
    let progressed = false;
    let short = false;
    for (const { candidate, units } of shares) {
      if (!this.running) break;
      let claimedUnits: number;
      if (candidate.kind === "comparison") {
        const claimed = await this.claimPairs(candidate.key, units * candidate.slotsPerUnit, candidate.workspaceId);
        for (const pair of claimed.pairs) this.launchPair(pair, claimed.settings);
        claimedUnits = claimed.pairs.length;
      } else {
        const jobs = await this.claim(candidate.key, units, candidate.workspaceId);
        if (jobs.length > 0) {
          const run = await this.loadRun(candidate.key);
          for (const job of jobs) this.launch(job, run);
        }
        claimedUnits = jobs.length;
      }
      if (claimedUnits > 0) progressed = true;
      if (claimedUnits < units) short = true;
    }
    // A share came back short (another worker claimed first, the run ran out of pending cases):
    // while others made progress and slots are still free, share again at once rather than at
    // the next poll. Every extra round claims at least one case, so this cannot spin.
    if (short && progressed && this.running && this.maxSlots - this.usedSlots > 0) this.tickAgain = true;
  }

  /**
   * Runs and comparisons that could start work now, oldest first, at most 20 per workspace: each
   * with its demand (concurrency headroom across all workers, at most its pending work, which is
   * counted only up to `free`), the slots one unit takes and the cases it marks running. Arm runs
   * of a comparison are not candidates themselves. Advisory: `claim`/`claimPairs` check again
   * under their locks.
   */
  private async claimCandidates(free: number): Promise<ClaimCandidate[]> {
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
  private async workspaceHeadroom(candidates: ClaimCandidate[]): Promise<Map<string, number>> {
    const cap = this.workspaceMaxRunning ?? Number.POSITIVE_INFINITY;
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
  private async lockWorkspaceHeadroom(client: PoolClient, workspaceId: string): Promise<number> {
    if (this.workspaceMaxRunning === null) return Number.MAX_SAFE_INTEGER;
    await client.query(`SELECT pg_advisory_xact_lock(${WORKSPACE_CLAIM_LOCK}, hashtext($1))`, [workspaceId]);
    const {
      rows: [row],
    } = await client.query<{ running: number }>(
      `SELECT count(*)::int AS running FROM "Run" r JOIN "CaseResult" c ON c."runId" = r."id"
       WHERE r."workspaceId" = $1::uuid AND r."status" IN ('pending', 'running') AND c."status" = 'running'`,
      [workspaceId],
    );
    return Math.max(0, this.workspaceMaxRunning - (row?.running ?? 0));
  }

  /** Counts slots this process holds per workspace and per run/comparison (`delta` < 0 releases). */
  private hold(workspaceId: string, key: string, delta: number) {
    for (const [map, k] of [
      [this.heldByWorkspace, workspaceId],
      [this.heldByKey, key],
    ] as const) {
      const n = (map.get(k) ?? 0) + delta;
      if (n > 0) map.set(k, n);
      else map.delete(k);
    }
  }

  /**
   * Claims whole pairs of a comparison: every pending case result at the same position of its
   * arm runs, under the comparison's row lock (so its concurrency, counted in pairs, holds
   * across workers). A sequential/randomized pair takes one slot, a concurrent pair one per arm.
   */
  private async claimPairs(
    comparisonId: string,
    freeSlots: number,
    workspaceId: string,
  ): Promise<{ pairs: CaseJob[][]; slots: number; settings: PairSettings }> {
    const none = { pairs: [], slots: 0, settings: { ordering: "sequential", seed: 0, resetWindowMs: 0, comparisonId } as PairSettings };
    const client = await executorPool().connect();
    try {
      await client.query("BEGIN");
      const workspaceRoom = await this.lockWorkspaceHeadroom(client, workspaceId);
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
         FROM "Comparison" WHERE "id" = $1::uuid FOR UPDATE`,
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
           UPDATE "CaseResult" c SET "status" = 'running', "leaseOwner" = $3,
             "leaseExpiresAt" = now() + $4::int * interval '1 millisecond', "attempts" = c."attempts" + 1, "startedAt" = now(),
             "stage" = ${INITIAL_STAGE_SQL}
           FROM "Run" r, picked
           WHERE r."id" = c."runId" AND r."comparisonId" = $1::uuid AND c."position" = picked."position" AND c."status" = 'pending'
           RETURNING c."id" AS "caseResultId", c."runId", c."workspaceId", c."position", c."variant"::text AS variant, c."caseSnapshot",
                     c."attempts", c."resolvedVariables", r."armIndex" AS "armIndex"
         ), started AS (
           UPDATE "Run" SET "status" = 'running', "startedAt" = coalesce("startedAt", now())
           WHERE "comparisonId" = $1::uuid AND "status" = 'pending' AND EXISTS (SELECT 1 FROM claimed)
         ), cmp AS (
           UPDATE "Comparison" SET "status" = 'running', "startedAt" = coalesce("startedAt", now())
           WHERE "id" = $1::uuid AND "status" = 'pending' AND EXISTS (SELECT 1 FROM claimed)
         )
         SELECT * FROM claimed`,
        [comparisonId, limit, this.workerId, this.leaseMs],
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
   * Runs the arms of one pair (spec 003 §3): one after the other in the pair's order with the
   * reset window between them (sequential, randomized), or all at once (concurrent); each arm is
   * written the moment it finishes, exactly like a plain case. Then the pair is recorded.
   */
  private launchPair(jobs: CaseJob[], settings: PairSettings) {
    const slots = settings.ordering === "concurrent" ? jobs.length : 1;
    this.pairSlots += slots;
    this.pairCases += jobs.length;
    this.hold(jobs[0]!.workspaceId, settings.comparisonId, slots);
    const controllers = jobs.map(() => new AbortController());
    const run = async () => {
      const contexts = await Promise.all(jobs.map((j) => this.loadRun(j.runId)));
      if (settings.ordering === "concurrent") {
        await Promise.all(jobs.map((job, i) => this.execute(job, contexts[i]!, controllers[i]!.signal)));
        return;
      }
      for (const [i, job] of jobs.entries()) {
        const signal = controllers[i]!.signal;
        if (i > 0 && settings.resetWindowMs > 0) await abortableSleep(settings.resetWindowMs, signal);
        if (signal.aborted && this.running) {
          // Cancelled before this arm started: it never ran.
          await this.persist(
            job,
            { ...errorOutcome("cancelled", "Comparison cancelled before this arm ran"), status: "skipped", stage: "pending" },
            0,
          ).catch((err: unknown) => logger.error({ err, caseResultId: job.caseResultId }, "could not record a skipped arm"));
          continue;
        }
        await this.execute(job, contexts[i]!, signal);
      }
    };
    const done = run()
      .catch((err: unknown) => logger.error({ err, comparisonId: settings.comparisonId }, "comparison pair failed"))
      .then(() => {
        if (!this.killed) recordPairs(settings.comparisonId, [jobs[0]!.position]);
      })
      .finally(() => {
        for (const job of jobs) this.inFlight.delete(job.caseResultId);
        this.pairSlots -= slots;
        this.pairCases -= jobs.length;
        this.hold(jobs[0]!.workspaceId, settings.comparisonId, -slots);
        if (this.running) void this.tick();
      });
    jobs.forEach((job, i) => this.inFlight.set(job.caseResultId, { runId: job.runId, controller: controllers[i]!, done }));
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
  private async claim(runId: string, limit: number, workspaceId: string): Promise<CaseJob[]> {
    if (!isUuid(runId) || !isUuid(workspaceId)) return [];
    const int = (n: number) => String(Number.isFinite(n) ? Math.min(2 ** 31 - 1, Math.max(0, Math.floor(n))) : 0);
    const cap = this.workspaceMaxRunning;
    const workspaceRoom =
      cap === null
        ? ""
        : `, ${int(cap)} - (SELECT count(*) FROM "Run" r JOIN "CaseResult" c ON c."runId" = r."id"
             WHERE r."workspaceId" = '${workspaceId}' AND r."status" IN ('pending', 'running') AND c."status" = 'running')`;
    const statements = [
      "BEGIN",
      ...(cap === null ? [] : [`SELECT pg_advisory_xact_lock(${WORKSPACE_CLAIM_LOCK}, hashtext('${workspaceId}'))`]),
      `SELECT 1 FROM "Run" WHERE "id" = '${runId}' FOR UPDATE`,
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
         UPDATE "CaseResult" c SET "status" = 'running', "leaseOwner" = ${pg.escapeLiteral(this.workerId)},
           "leaseExpiresAt" = now() + ${int(this.leaseMs)} * interval '1 millisecond', "attempts" = c."attempts" + 1, "startedAt" = now(),
           "stage" = ${INITIAL_STAGE_SQL}
         FROM picked WHERE c."id" = picked."id"
         RETURNING c."id" AS "caseResultId", c."runId", c."workspaceId", c."position", c."variant"::text AS variant, c."caseSnapshot", c."attempts",
           c."resolvedVariables"
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

  private async loadRun(runId: string): Promise<RunContext> {
    const cached = this.runCache.get(runId);
    if (cached) return cached;
    const r = await db.run.findUniqueOrThrow({
      where: { id: runId },
      select: {
        id: true,
        workspaceId: true,
        concurrency: true,
        agentSnapshot: true,
        evalSnapshot: true,
        variantSnapshot: true,
        resolvedVariables: true,
      },
    });
    if (this.runCache.size > 100) this.runCache.clear();
    this.runCache.set(runId, r);
    return r;
  }

  private launch(job: CaseJob, run: RunContext) {
    const controller = new AbortController();
    this.hold(job.workspaceId, job.runId, 1);
    const done = this.execute(job, run, controller.signal).finally(() => {
      this.inFlight.delete(job.caseResultId);
      this.hold(job.workspaceId, job.runId, -1);
      if (this.running) void this.tick();
    });
    this.inFlight.set(job.caseResultId, { runId: job.runId, controller, done });
  }

  private async execute(job: CaseJob, run: RunContext, signal: AbortSignal) {
    const started = Date.now();
    let outcome: CaseOutcome;
    try {
      outcome = await this.runner(job, run, signal, (stage) => this.reportStage(job.caseResultId, stage));
    } catch (err) {
      logger.error({ err, caseResultId: job.caseResultId }, "case runner crashed");
      outcome = errorOutcome(
        signal.aborted ? "cancelled" : "internal",
        signal.aborted ? "Run cancelled while this case was running" : "Internal error while running this case",
      );
    }
    if (this.killed) return; // a crashed worker writes nothing
    if (signal.aborted && !this.running) {
      // Shutting down: hand the case back instead of recording an aborted result.
      // (A case of a run cancelled meanwhile becomes skipped rather than pending again.)
      await db.$executeRaw`
        UPDATE "CaseResult" c SET
          "status" = (CASE WHEN r."cancelRequestedAt" IS NULL THEN 'pending' ELSE 'skipped' END)::"CaseResultStatus",
          "completedAt" = CASE WHEN r."cancelRequestedAt" IS NULL THEN NULL ELSE now() END,
          "stage" = CASE WHEN r."cancelRequestedAt" IS NULL THEN 'pending'::"CaseStage" ELSE c."stage" END,
          "leaseOwner" = NULL, "leaseExpiresAt" = NULL, "attempts" = c."attempts" - 1
        FROM "Run" r
        WHERE c."id" = ${job.caseResultId}::uuid AND r."id" = c."runId" AND c."leaseOwner" = ${this.workerId} AND c."status" = 'running'`;
      await refreshRunTotals(job.runId);
      await finalizeRunIfDone(job.runId);
      return;
    }
    const durationMs = Date.now() - started;
    try {
      await this.persist(job, outcome, durationMs);
    } catch (err) {
      // The database refused the result (a value it rejects, a constraint, a serialization
      // failure): record an error result instead, so the case never stays `running` under a
      // lease this process keeps extending. If even that fails (database gone), the lease
      // expires and recovery hands the case back.
      logger.error({ err, caseResultId: job.caseResultId, runId: job.runId }, "could not persist a case result; storing an error result");
      const code = (err as { code?: unknown } | null)?.code;
      const detail = typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? ` (database error ${code})` : "";
      try {
        await this.persist(
          job,
          { ...errorOutcome("persist", `The result of this case could not be saved${detail}`), runError: outcome.runError },
          durationMs,
        );
      } catch (err2) {
        logger.error({ err: err2, caseResultId: job.caseResultId }, "could not store the error result either; the lease will expire");
      }
    }
  }

  /**
   * Writes the case result (only while this worker still holds the lease), its LLM calls and
   * the run's totals in one statement, batched with the run's other results finishing meanwhile
   * (./result-writer.ts), and finalizes the run when it was the last case.
   */
  private persist(job: CaseJob, outcome: CaseOutcome, durationMs: number): Promise<void> {
    // A stage still waiting for the batch is moot once the result is written.
    this.pendingStages.delete(job.caseResultId);
    return this.results.write(job, outcome, durationMs);
  }

  /** Queues a case's live stage for the next batched write (STAGE_FLUSH_MS). */
  private reportStage(caseResultId: string, stage: CaseStage) {
    if (this.killed) return;
    this.pendingStages.set(caseResultId, stage);
    if (!this.stageTimer) {
      this.stageTimer = setTimeout(() => void this.flushStages(), STAGE_FLUSH_MS);
      this.stageTimer.unref();
    }
  }

  /**
   * Writes every queued live stage in one statement. Guarded by the lease and `running`, so it
   * never overwrites a final stage: a result written first makes the row no longer match.
   */
  private async flushStages() {
    this.stageTimer = null;
    if (this.pendingStages.size === 0 || this.killed) return;
    const ids = [...this.pendingStages.keys()];
    const stages = [...this.pendingStages.values()];
    this.pendingStages.clear();
    try {
      // Straight to the pool (a prepared statement): this runs while agent answers are arriving.
      await executorPool().query({
        name: "assay-flush-stages",
        // Rows locked in id order, like every multi-row write of this worker's cases (no deadlock).
        text: `WITH s AS (SELECT * FROM unnest($1::uuid[], $2::text[]) AS s(id, stage)),
               locked AS (SELECT c."id" FROM "CaseResult" c WHERE c."id" IN (SELECT id FROM s)
                          AND c."status" = 'running' AND c."leaseOwner" = $3 ORDER BY c."id" FOR UPDATE)
               UPDATE "CaseResult" c SET "stage" = s.stage::"CaseStage"
               FROM s, locked l
               WHERE c."id" = s.id AND l."id" = s.id AND c."status" = 'running' AND c."leaseOwner" = $3`,
        values: [ids, stages, this.workerId],
      });
    } catch (err) {
      logger.warn({ err, workerId: this.workerId }, "could not write live case stages");
    }
  }

  private clearStages() {
    if (this.stageTimer) clearTimeout(this.stageTimer);
    this.stageTimer = null;
    this.pendingStages.clear();
  }

  /**
   * Extends the leases of the cases this process is still running, and aborts cases of runs that
   * were cancelled. Only those: a case whose result write failed (or that was dropped any other
   * way) must not keep a live lease, or recovery would never hand it back.
   */
  private async heartbeat() {
    if (!this.running || this.inFlight.size === 0) return;
    try {
      const ids = [...this.inFlight.keys()];
      const runIds = [...new Set([...this.inFlight.values()].map((f) => f.runId))];
      // One round trip on the pool: extend the leases, and learn which of these runs were cancelled.
      const { rows: cancelled } = await executorPool().query<{ id: string }>({
        name: "assay-heartbeat",
        // Rows locked in id order, like every multi-row write of this worker's cases (no deadlock).
        text: `WITH locked AS (
                 SELECT "id" FROM "CaseResult" WHERE "id" = ANY($1::uuid[]) AND "leaseOwner" = $2 AND "status" = 'running'
                 ORDER BY "id" FOR UPDATE
               ), extended AS (
                 UPDATE "CaseResult" c SET "leaseExpiresAt" = now() + $3::int * interval '1 millisecond'
                 FROM locked l WHERE c."id" = l."id"
                 RETURNING 1
               )
               SELECT r."id" FROM "Run" r WHERE r."id" = ANY($4::uuid[]) AND r."cancelRequestedAt" IS NOT NULL`,
        values: [ids, this.workerId, this.leaseMs, runIds],
      });
      const cancelledIds = new Set(cancelled.map((r) => r.id));
      for (const f of this.inFlight.values()) {
        if (cancelledIds.has(f.runId)) f.controller.abort(new Error("run cancelled"));
      }
    } catch (err) {
      logger.error({ err, workerId: this.workerId }, "executor heartbeat failed");
    }
  }
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Waits `ms` (the reset window) unless the signal aborts first. */
function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** How a comparison's pairs run, read with the claim. */
type PairSettings = { comparisonId: string; ordering: "sequential" | "randomized" | "concurrent"; seed: number; resetWindowMs: number };
