// Watching runs from the bench over one plain `pg` connection (not the product's pool, so the
// watching adds nothing to what is measured): completion, the peak of running cases per run and
// per workspace sampled while they run, timings read back from the database, and the
// exactly-once check against the fake. Used by the fairness and workers benches.
import pg from "pg";
import type { FakeStats } from "./fake";

const FINISHED = ["completed", "failed", "cancelled"];

export type RunTimings = {
  /** Run createdAt → completedAt. */
  createdToCompletedMs: number | null;
  /** Run createdAt → its first case claimed. */
  firstClaimMs: number | null;
  /** First case claimed → run completedAt: the processing time, without the wait for a worker's poll. */
  claimToCompletedMs: number | null;
};

export type WatchResult = {
  /** performance.now() when each run was seen finished (null: timed out). */
  finishedAt: Map<string, number | null>;
  status: Map<string, string>;
  /** Highest number of `running` case results seen at once, per run and per workspace (over the watched runs). */
  maxRunningByRun: Map<string, number>;
  maxRunningByWorkspace: Map<string, number>;
};

export class RunWatcher {
  private constructor(private readonly client: pg.Client) {}

  static async open(url: string): Promise<RunWatcher> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return new RunWatcher(client);
  }

  close(): Promise<void> {
    return this.client.end();
  }

  /**
   * Polls every `pollMs` until all `runIds` finished (or `timeoutMs`), sampling running cases.
   * `onSample` sees each sample (e.g. to start another run once the first holds its slots).
   */
  async waitAll(
    runIds: string[],
    opts: { pollMs?: number; timeoutMs: number; until?: (ids: string[]) => boolean; onSample?: (running: Map<string, number>) => void },
  ): Promise<WatchResult> {
    const finishedAt = new Map<string, number | null>(runIds.map((id) => [id, null]));
    const status = new Map<string, string>();
    const maxRunningByRun = new Map<string, number>();
    const maxRunningByWorkspace = new Map<string, number>();
    const deadline = performance.now() + opts.timeoutMs;
    for (;;) {
      const { rows } = await this.client.query<{ id: string; status: string; workspaceId: string; running: number }>(
        `SELECT r."id", r."status"::text AS status, r."workspaceId",
                (SELECT count(*)::int FROM "CaseResult" c WHERE c."runId" = r."id" AND c."status" = 'running') AS running
         FROM "Run" r WHERE r."id" = ANY($1::uuid[])`,
        [runIds],
      );
      const now = performance.now();
      const byWorkspace = new Map<string, number>();
      const running = new Map<string, number>();
      for (const r of rows) {
        status.set(r.id, r.status);
        running.set(r.id, r.running);
        if (FINISHED.includes(r.status) && finishedAt.get(r.id) === null) finishedAt.set(r.id, now);
        maxRunningByRun.set(r.id, Math.max(maxRunningByRun.get(r.id) ?? 0, r.running));
        byWorkspace.set(r.workspaceId, (byWorkspace.get(r.workspaceId) ?? 0) + r.running);
      }
      for (const [ws, n] of byWorkspace) maxRunningByWorkspace.set(ws, Math.max(maxRunningByWorkspace.get(ws) ?? 0, n));
      opts.onSample?.(running);
      const done = [...finishedAt.entries()].filter(([, at]) => at !== null).map(([id]) => id);
      if (done.length === runIds.length || opts.until?.(done) || now > deadline) break;
      await new Promise((r) => setTimeout(r, opts.pollMs ?? 20));
    }
    return { finishedAt, status, maxRunningByRun, maxRunningByWorkspace };
  }

  /** Timings of one run, or of several taken together (first created → last completed). */
  async timings(runIds: string | string[]): Promise<RunTimings> {
    const { rows } = await this.client.query<{ total: number | null; first: number | null; processing: number | null }>(
      `WITH runs AS (SELECT min(r."createdAt") AS created, max(r."completedAt") AS completed FROM "Run" r WHERE r."id" = ANY($1::uuid[])),
            claims AS (SELECT min(c."startedAt") AS first FROM "CaseResult" c WHERE c."runId" = ANY($1::uuid[]))
       SELECT (extract(epoch FROM (runs.completed - runs.created)) * 1000)::float AS total,
              (extract(epoch FROM (claims.first - runs.created)) * 1000)::float AS first,
              (extract(epoch FROM (runs.completed - claims.first)) * 1000)::float AS processing
       FROM runs, claims`,
      [typeof runIds === "string" ? [runIds] : runIds],
    );
    const row = rows[0];
    return { createdToCompletedMs: row?.total ?? null, firstClaimMs: row?.first ?? null, claimToCompletedMs: row?.processing ?? null };
  }

  /** Case results of a run by status. */
  async statuses(runId: string): Promise<Record<string, number>> {
    const { rows } = await this.client.query<{ status: string; n: number }>(
      `SELECT "status"::text AS status, count(*)::int AS n FROM "CaseResult" WHERE "runId" = $1::uuid GROUP BY 1`,
      [runId],
    );
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }
}

/**
 * The invariants of one bench run: completed, every case passed, each of its `cases` questions
 * (`${prefix} ${i}`) asked exactly once, running cases never above `concurrency`.
 */
export function runFailures(
  label: string,
  r: {
    status: string | undefined;
    statuses: Record<string, number>;
    cases: number;
    prefix: string;
    maxRunning: number;
    concurrency: number;
  },
  fake: FakeStats,
): string[] {
  const failures: string[] = [];
  if (r.status !== "completed") failures.push(`${label}: run ended ${r.status ?? "unseen"}, expected completed`);
  if ((r.statuses.passed ?? 0) !== r.cases)
    failures.push(`${label}: ${r.statuses.passed ?? 0}/${r.cases} cases passed (${JSON.stringify(r.statuses)})`);
  const wrong = Array.from({ length: r.cases }, (_, i) => `${r.prefix} ${i}`).filter((q) => fake.lastUserMessages.get(q) !== 1);
  if (wrong.length)
    failures.push(
      `${label}: ${wrong.length} cases were not asked exactly once (e.g. "${wrong[0]}": ${fake.lastUserMessages.get(wrong[0]!) ?? 0}×)`,
    );
  if (r.maxRunning > r.concurrency)
    failures.push(`${label}: ${r.maxRunning} cases running at once, above the run's concurrency ${r.concurrency}`);
  return failures;
}
