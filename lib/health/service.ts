/**
 * Health: whether the database answers within a timeout, and whether runs are being executed.
 * Called by GET /api/health, which the launcher, Playwright, container health checks and the run
 * page poll. The route is public, so this reads nothing from any workspace.
 *
 * Executor liveness: every process that executes runs beats its `ExecutorHeartbeat` row every
 * EXECUTOR_BEAT_MS (`startExecutorHeartbeat`, started with the executor). The launcher, which
 * supervises `npm start`'s executor process and restarts it when it dies, records what it is
 * doing in the file ASSAY_SUPERVISOR_STATE names. The executor is
 * - `up` when a process beat within EXECUTOR_STALE_MS (and after the supervised process's last
 *   exit, when there was one),
 * - `restarting` while the launcher restarts it: it exited, and no process has beaten since (the
 *   new one is waiting for its backoff, or starting),
 * - `down` otherwise (no executor anywhere: none started, or every one died unsupervised).
 */
import "server-only";
import os from "node:os";
import { readFileSync } from "node:fs";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";

export const EXECUTOR_BEAT_MS = 2_000;
export const EXECUTOR_STALE_MS = 3 * EXECUTOR_BEAT_MS;
/** Rows not beaten for this long are removed by any beating process (a process killed without stopping). */
const FORGET_AFTER_MS = 24 * 3600_000;

export async function databaseAnswers(timeoutMs = 2000): Promise<boolean> {
  try {
    await Promise.race([db.$queryRaw`SELECT 1`, new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), timeoutMs))]);
    return true;
  } catch {
    return false;
  }
}

/** Beats `owner`'s heartbeat row now and every EXECUTOR_BEAT_MS; the returned stop removes the row. */
export function startExecutorHeartbeat(owner: string): () => Promise<void> {
  let beats = 0;
  const beat = async () => {
    try {
      await db.$executeRaw`
        INSERT INTO "ExecutorHeartbeat" ("owner", "host", "pid") VALUES (${owner}, ${os.hostname()}, ${process.pid})
        ON CONFLICT ("owner") DO UPDATE SET "beatAt" = now()`;
      if (beats++ % 1000 === 0) {
        await db.$executeRaw`DELETE FROM "ExecutorHeartbeat" WHERE "beatAt" < now() - make_interval(secs => ${FORGET_AFTER_MS / 1000})`;
      }
    } catch (err) {
      logger.warn({ err }, "executor heartbeat failed; retried at the next beat");
    }
  };
  void beat();
  const timer = setInterval(() => void beat(), EXECUTOR_BEAT_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await db.executorHeartbeat.deleteMany({ where: { owner } }).catch(() => undefined);
  };
}

export type ExecutorState = "up" | "restarting" | "down";
export type ExecutorHealth = {
  state: ExecutorState;
  /** The newest beat of any executor process (null: none has beaten in the last day). */
  last_heartbeat_at: string | null;
  /** Seconds since that beat, by the database's clock (null without one). */
  seconds_since_heartbeat: number | null;
  /** Executor processes that beat within EXECUTOR_STALE_MS. */
  processes: number;
  /** Restarts the launcher made of this machine's executor process since it started (null: not supervised here). */
  restarts: number | null;
};

/** What the launcher recorded about its executor process (ASSAY_SUPERVISOR_STATE): its restarts and last exit, or null. */
function supervisedExecutor(): { restarts: number; lastExitAt: number | null } | null {
  if (!env.ASSAY_SUPERVISOR_STATE) return null;
  try {
    const file = JSON.parse(readFileSync(env.ASSAY_SUPERVISOR_STATE, "utf8")) as {
      children?: Record<string, { restarts?: unknown; last_exit?: { at?: unknown } | null }>;
    };
    const child = file.children?.executor;
    if (!child) return null;
    const at = typeof child.last_exit?.at === "string" ? Date.parse(child.last_exit.at) : NaN;
    return { restarts: typeof child.restarts === "number" ? child.restarts : 0, lastExitAt: Number.isFinite(at) ? at : null };
  } catch {
    return null;
  }
}

export async function executorHealth(now = Date.now()): Promise<ExecutorHealth> {
  const [row] = await db.$queryRaw<{ last: Date | null; age: number | null; live: number }[]>`
    SELECT max("beatAt") AS last, extract(epoch FROM now() - max("beatAt"))::float8 AS age,
           count(*) FILTER (WHERE "beatAt" > now() - make_interval(secs => ${EXECUTOR_STALE_MS / 1000}))::int AS live
    FROM "ExecutorHeartbeat"`;
  const last = row?.last ?? null;
  const supervised = supervisedExecutor();
  const fresh = last !== null && now - last.getTime() <= EXECUTOR_STALE_MS;
  let state: ExecutorState = fresh ? "up" : "down";
  // The launcher is bringing a dead executor back: up again only once a process beat after it died
  // (the dead one's last beats may still look fresh, and the new one beats only once it has booted).
  if (supervised?.lastExitAt && (!last || last.getTime() <= supervised.lastExitAt)) state = "restarting";
  return {
    state,
    last_heartbeat_at: last?.toISOString() ?? null,
    seconds_since_heartbeat: row?.age === null || row?.age === undefined ? null : Math.max(0, Math.round(row.age * 10) / 10),
    processes: row?.live ?? 0,
    restarts: supervised?.restarts ?? null,
  };
}
