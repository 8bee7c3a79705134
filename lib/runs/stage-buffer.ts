/**
 * The executor's live-stage buffer: a case's runner reports each stage it enters (processing
 * files, executing the agent, judging...) for the live run page; writing each report on its own
 * would cost a round trip per stage while agent answers are arriving, so reports are kept here
 * (the latest per case wins) and written at most every STAGE_FLUSH_MS, all in one statement.
 */
import "server-only";
import { executorPool } from "@/lib/db";
import { logger } from "@/lib/logger";
import type { CaseStage } from "@/lib/runs/dto";

/** Live stages are written at most this often, all pending ones in one statement. */
export const STAGE_FLUSH_MS = 250;

export class StageBuffer {
  /** Live stages reported since the last flush, by case result id (the latest wins). */
  private readonly pending = new Map<string, CaseStage>();
  private timer: NodeJS.Timeout | null = null;

  /** `stopped()` is true once the worker was killed: a crashed worker writes nothing. */
  constructor(
    private readonly workerId: string,
    private readonly opts: { stopped: () => boolean },
  ) {}

  /** Queues a case's live stage for the next batched write. */
  report(caseResultId: string, stage: CaseStage) {
    if (this.opts.stopped()) return;
    this.pending.set(caseResultId, stage);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), STAGE_FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Forgets a case's queued stage: moot once its result is written. */
  drop(caseResultId: string) {
    this.pending.delete(caseResultId);
  }

  /** Drops everything queued and the pending flush (the executor stops). */
  clear() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
  }

  /**
   * Writes every queued live stage in one statement. Guarded by the lease and `running`, so it
   * never overwrites a final stage: a result written first makes the row no longer match.
   */
  private async flush() {
    this.timer = null;
    if (this.pending.size === 0 || this.opts.stopped()) return;
    const ids = [...this.pending.keys()];
    const stages = [...this.pending.values()];
    this.pending.clear();
    try {
      // Straight to the pool (a prepared statement): this runs while agent answers are arriving.
      await executorPool().query({
        name: "assay-flush-stages",
        // Rows locked in id order, like every multi-row write of this worker's cases (no deadlock).
        text: `WITH s AS (SELECT * FROM unnest($1::uuid[], $2::text[]) AS s(id, stage)),
               locked AS (SELECT c."id" FROM "CaseResult" c WHERE c."id" IN (SELECT id FROM s)
                          AND c."status" = 'running' AND c."leaseOwner" = $3 ORDER BY c."id" FOR NO KEY UPDATE)
               UPDATE "CaseResult" c SET "stage" = s.stage::"CaseStage"
               FROM s, locked l
               WHERE c."id" = s.id AND l."id" = s.id AND c."status" = 'running' AND c."leaseOwner" = $3`,
        values: [ids, stages, this.workerId],
      });
    } catch (err) {
      logger.warn({ err, workerId: this.workerId }, "could not write live case stages");
    }
  }
}
