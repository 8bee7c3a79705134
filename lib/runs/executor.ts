/**
 * The run executor: claims pending case results, runs each through a `CaseRunner`
 * (./case-runner.ts), persists the result in one statement and finalizes the run; a heartbeat
 * extends leases and aborts cancelled cases, and recovery hands back cases of dead workers.
 * The claim SQL is in ./claims.ts, recovery in ./recovery.ts, a comparison pair's arm order in
 * ./pair-runner.ts and the batched live stages in ./stage-buffer.ts; this file is the loop.
 * Started once per process by ./worker.ts (from lib/server-start.ts); tests build it directly.
 * Key rule: only the worker holding a case's lease may write it, so every case is recorded
 * exactly once and no run stays running. ./README.md maps the whole pipeline.
 */
import "server-only";
import { LRUCache } from "lru-cache";
import { db, executorPool } from "@/lib/db";
import { logger } from "@/lib/logger";
import { runEvents } from "@/lib/runs/wakeup";
import { finalizeRunIfDone, refreshRunTotals } from "@/lib/runs/finalize";
import { newLeaseOwnerId } from "@/lib/runs/lease-owner";
import { ResultWriter } from "@/lib/runs/result-writer";
import { recordPairs } from "@/lib/comparisons/engine";
import { shareSlots } from "@/lib/runs/fair-share";
import { claimCandidates, claimCases, claimPairs, workspaceHeadroomOf, type ClaimLease, type PairSettings } from "@/lib/runs/claims";
import type { ClaimCandidate } from "@/lib/runs/fair-share";
import { recoverExpiredCases } from "@/lib/runs/recovery";
import { runPairArms } from "@/lib/runs/pair-runner";
import { StageBuffer } from "@/lib/runs/stage-buffer";
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
  /**
   * A run's hand-offs read its pending cases after the last position this process launched,
   * and from its first again once that mark is this old (ms; default HANDOFF_RESCAN_MS).
   */
  handoffRescanMs?: number;
};

export { MAX_RESPONSE_CHARS } from "@/lib/runs/result-writer";
/** The start-up warm-up (ExecutorOptions.warmUp) is given at most this long before claims begin. */
const WARM_UP_LIMIT_MS = 5_000;
/**
 * How long a run's hand-offs read after the last position this process launched before they
 * read from its first pending case again: a case made pending again below that mark (handed
 * back by a stopping worker, recovered from a dead one) waits at most this long for a hand-off.
 */
export const HANDOFF_RESCAN_MS = 5_000;

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
  private readonly runCache = new LRUCache<string, RunContext>({ max: 100 });
  /**
   * Per run, the highest position this process launched since `since`: where its hand-offs
   * read the run's pending cases from (ResultWriter's Handoff.from), until HANDOFF_RESCAN_MS.
   */
  private readonly launchedUpTo = new LRUCache<string, { position: number; since: number }>({ max: 100 });
  private readonly handoffRescanMs: number;
  /** Slots this process holds per workspace and per run/comparison, for the tick's fair shares. */
  private readonly heldByWorkspace = new Map<string, number>();
  private readonly heldByKey = new Map<string, number>();
  /** Rotates the tie-break of the fair shares tick by tick (./fair-share.ts). */
  private turn = 0;
  private readonly results: ResultWriter;
  private readonly stages: StageBuffer;
  /** The lease every claim of this executor puts on its cases. */
  private readonly lease: ClaimLease;
  private timers: NodeJS.Timeout[] = [];
  private running = false;
  private ticking = false;
  private tickAgain = false;
  /**
   * Whether a run or comparison may be waiting for this process's slots (the last tick could not
   * give every candidate all it asked for, or a run was queued since). While it is not, a result
   * write hands its run the slots it frees (`handoff`); while it is, freed slots go through the
   * tick's fair shares. Starts true: nothing is known before the first tick.
   */
  private contended = true;
  /** Ticks to skip: slots the hand-off already took back (see `launch`). */
  private handedOff = 0;
  private handedOffTotal = 0;
  private readonly onQueued = () => {
    this.contended = true;
    void this.tick();
  };
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
    this.handoffRescanMs = opts.handoffRescanMs ?? HANDOFF_RESCAN_MS;
    this.results = new ResultWriter(this.workerId, {
      stopped: () => this.killed,
      handoff: {
        leaseMs: this.leaseMs,
        wanted: () => this.running && !this.contended,
        launch: (jobs) => this.launchHandedOff(jobs),
        from: (runId) => this.handoffFrom(runId),
      },
    });
    this.workspaceMaxRunning = opts.workspaceMaxRunning ?? null;
    this.stages = new StageBuffer(this.workerId, { stopped: () => this.killed });
    this.lease = { workerId: this.workerId, leaseMs: this.leaseMs, workspaceMaxRunning: this.workspaceMaxRunning };
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
    this.stages.clear();
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
    this.stages.clear();
    this.killed = true;
    for (const f of this.inFlight.values()) f.controller.abort(new Error("killed"));
  }
  private killed = false;

  get activeCases() {
    return this.inFlight.size;
  }

  /** Cases this executor started from a result write's hand-off (the rest came from ticks' claims). */
  get handedOffCases() {
    return this.handedOffTotal;
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

  /** Hands back the cases of dead workers and finalizes orphaned runs (./recovery.ts). */
  recoverExpired(): Promise<void> {
    return recoverExpiredCases({ workerId: this.workerId, maxAttempts: this.maxAttempts });
  }

  /**
   * One tick: shares this process's free slots fairly between the runs and comparisons with work
   * (./fair-share.ts: the workspace holding the fewest slots first, then its run holding the
   * fewest, ties round-robin), then claims each share. A comparison's arm runs are claimed only
   * through the comparison: its pairs (ordering, reset window) are the unit of work.
   */
  private async claimAndLaunch() {
    const free = this.maxSlots - this.usedSlots;
    if (free <= 0) {
      // Every slot is taken: learn whether anyone else waits for one, or the hand-off would keep
      // giving the freed slots back to their runs for ever.
      if (!this.contended) this.contended = this.othersWait(await claimCandidates(1), () => true);
      return;
    }
    const candidates = await claimCandidates(free);
    if (candidates.length === 0) {
      this.contended = false;
      return;
    }
    const workspaceHeadroom =
      this.workspaceMaxRunning === null ? undefined : await workspaceHeadroomOf(candidates, this.workspaceMaxRunning);
    const shares = shareSlots({
      free,
      candidates,
      heldByWorkspace: this.heldByWorkspace,
      heldByKey: this.heldByKey,
      workspaceHeadroom,
      turn: this.turn++,
    });
    const granted = new Map(shares.map((s) => [s.candidate.key, s.units]));
    this.contended = this.othersWait(candidates, (c) => (granted.get(c.key) ?? 0) < c.demand);
    let progressed = false;
    let short = false;
    for (const { candidate, units } of shares) {
      if (!this.running) break;
      let claimedUnits: number;
      if (candidate.kind === "comparison") {
        const claimed = await claimPairs(this.lease, candidate.key, units * candidate.slotsPerUnit, candidate.workspaceId);
        for (const pair of claimed.pairs) this.launchPair(pair, claimed.settings);
        claimedUnits = claimed.pairs.length;
      } else {
        // The run's context is read beside the claim (a new run's first cases wait for one round
        // trip, not two); a run that cannot be read is read again only when cases were claimed.
        const [jobs, loaded] = await Promise.all([
          claimCases(this.lease, candidate.key, units, candidate.workspaceId),
          this.loadRun(candidate.key).catch(() => null),
        ]);
        if (jobs.length > 0) {
          const run = loaded ?? (await this.loadRun(candidate.key));
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
   * Whether a candidate `unserved` says wants more than this tick gave it would get freed slots
   * from the fair shares — unless it is the only candidate and the only run this process holds
   * slots for: then the shares would give them back to it anyway.
   */
  private othersWait(candidates: ClaimCandidate[], unserved: (c: ClaimCandidate) => boolean): boolean {
    const only = candidates.length === 1 ? candidates[0]! : null;
    if (only && this.heldByKey.size <= 1 && (this.heldByKey.size === 0 || this.heldByKey.has(only.key))) return false;
    return candidates.some(unserved);
  }

  /**
   * Launches the cases a result write claimed for its run in place of the ones it wrote (the
   * hand-off): their slots are taken at once, and the ticks those cases' ends would have run are
   * skipped, since no slot was freed.
   */
  private launchHandedOff(jobs: CaseJob[]) {
    const launchAll = (run: RunContext) => {
      if (this.killed) return; // a crashed worker starts nothing; the leases expire
      if (!this.running) {
        // Stopping (the write was sent before): hand the cases back, as stop does with its own.
        for (const job of jobs)
          void this.handBack(job).catch((err: unknown) =>
            logger.error({ err, caseResultId: job.caseResultId }, "could not hand a case back"),
          );
        return;
      }
      this.handedOff += jobs.length;
      this.handedOffTotal += jobs.length;
      for (const job of jobs) this.launch(job, run);
    };
    const cached = this.runCache.get(jobs[0]!.runId);
    if (cached) return launchAll(cached);
    this.loadRun(jobs[0]!.runId).then(
      launchAll,
      // Not launched, not extended by the heartbeat: their leases expire and recovery hands them back.
      (err: unknown) => logger.error({ err, runId: jobs[0]!.runId }, "could not load the run of handed-off cases"),
    );
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
   * Launches a claimed comparison pair (./pair-runner.ts runs its arms): it holds its slots
   * until every arm is written, then the pair is recorded.
   */
  private launchPair(jobs: CaseJob[], settings: PairSettings) {
    const slots = settings.ordering === "concurrent" ? jobs.length : 1;
    this.pairSlots += slots;
    this.pairCases += jobs.length;
    this.hold(jobs[0]!.workspaceId, settings.comparisonId, slots);
    const controllers = jobs.map(() => new AbortController());
    const hooks = {
      loadRun: (runId: string) => this.loadRun(runId),
      execute: (job: CaseJob, run: RunContext, signal: AbortSignal) => this.execute(job, run, signal),
      persist: (job: CaseJob, outcome: CaseOutcome, durationMs: number) => this.persist(job, outcome, durationMs),
      running: () => this.running,
    };
    const done = runPairArms(
      jobs,
      settings,
      controllers.map((c) => c.signal),
      hooks,
    )
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
    this.runCache.set(runId, r);
    return r;
  }

  /**
   * Where a hand-off of the run reads its pending cases from: after the last position launched
   * here, or from the first (-1) when nothing was, or the mark is HANDOFF_RESCAN_MS old (then the
   * cases launched next set it again).
   */
  private handoffFrom(runId: string): number {
    const mark = this.launchedUpTo.get(runId);
    if (!mark) return -1;
    if (Date.now() - mark.since < this.handoffRescanMs) return mark.position;
    this.launchedUpTo.delete(runId);
    return -1;
  }

  private launch(job: CaseJob, run: RunContext) {
    const mark = this.launchedUpTo.get(job.runId);
    if (!mark) this.launchedUpTo.set(job.runId, { position: job.position, since: Date.now() });
    else if (job.position > mark.position) mark.position = job.position;
    const controller = new AbortController();
    this.hold(job.workspaceId, job.runId, 1);
    const done = this.execute(job, run, controller.signal).finally(() => {
      this.inFlight.delete(job.caseResultId);
      this.hold(job.workspaceId, job.runId, -1);
      if (this.handedOff > 0) this.handedOff--;
      else if (this.running) void this.tick();
    });
    this.inFlight.set(job.caseResultId, { runId: job.runId, controller, done });
  }

  private async execute(job: CaseJob, run: RunContext, signal: AbortSignal) {
    const started = Date.now();
    let outcome: CaseOutcome;
    try {
      outcome = await this.runner(job, run, signal, (stage) => this.stages.report(job.caseResultId, stage));
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
      await this.handBack(job);
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
   * Hands a case this worker holds back (shutting down): pending again, its attempt not counted —
   * or skipped, when its run was cancelled meanwhile.
   */
  private async handBack(job: CaseJob) {
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
  }

  /**
   * Writes the case result (only while this worker still holds the lease), its LLM calls and
   * the run's totals in one statement, batched with the run's other results finishing meanwhile
   * (./result-writer.ts), and finalizes the run when it was the last case.
   */
  private persist(job: CaseJob, outcome: CaseOutcome, durationMs: number): Promise<void> {
    // A stage still waiting for the batch is moot once the result is written.
    this.stages.drop(job.caseResultId);
    return this.results.write(job, outcome, durationMs);
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
                 ORDER BY "id" FOR NO KEY UPDATE
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
