/**
 * The job library: one pg-boss instance per process, on the app's own connection pool (so it
 * connects as the app's role, with no pool of its own), its tables in the `pgboss` schema that
 * the owner role installs where the migrations run (scripts/job-schema.mjs). Sending a job from
 * a process that has not started the library is a logged no-op: every job that matters has a
 * durable row of its own behind it that a cron pass finds again (see ./definitions.ts).
 *
 * The instance lives on globalThis: Next.js bundles instrumentation and route handlers
 * separately, and a route that queues a webhook delivery must reach the instance started at
 * start-up.
 */
import "server-only";
import { PgBoss, type SendOptions } from "pg-boss";
import { pool } from "@/lib/db";
import { logger } from "@/lib/logger";

export const JOB_SCHEMA = "pgboss";

const state = globalThis as unknown as { assayJobBoss?: PgBoss; assayJobBossStarting?: Promise<PgBoss> };

export type BossOptions = {
  /** Runs cron schedules (sends their jobs) and supervises queues (expiry, retention); off for a send-only instance. */
  maintain: boolean;
};

/** Starts this process's instance once (idempotent; concurrent callers share the start). */
export async function startBoss({ maintain }: BossOptions): Promise<PgBoss> {
  if (state.assayJobBoss) return state.assayJobBoss;
  state.assayJobBossStarting ??= (async () => {
    const boss = new PgBoss({
      db: { executeSql: (text, values) => pool.query(text, values) },
      schema: JOB_SCHEMA,
      // The owner role installs and upgrades the schema; the app role may not run DDL.
      migrate: false,
      createSchema: false,
      supervise: maintain,
      schedule: maintain,
      // REINDEX needs the indexes' owner; the owner's maintenance is an operator's job.
      reindex: false,
    });
    boss.on("error", (err) => logger.error({ err }, "job library error"));
    await boss.start();
    state.assayJobBoss = boss;
    return boss;
  })();
  try {
    return await state.assayJobBossStarting;
  } finally {
    state.assayJobBossStarting = undefined;
  }
}

/** This process's instance, if started. */
export function runningBoss(): PgBoss | undefined {
  return state.assayJobBoss;
}

/**
 * Sends a job (returns its id, or null when a singleton key already holds one). A process
 * without the library started only logs: the durable row behind the job is found again.
 */
export async function sendJob(name: string, data: object, options: SendOptions = {}): Promise<string | null> {
  const boss = state.assayJobBoss;
  if (!boss) {
    logger.debug({ job: name }, "job library not started in this process; the job's row waits for the next pass");
    return null;
  }
  return boss.send(name, data, options);
}

/** Deletes a job that is no longer needed (a process without the library started has none). */
export async function deleteJob(name: string, id: string): Promise<void> {
  await state.assayJobBoss?.deleteJob(name, id);
}

/** Stops this process's instance: workers finish their jobs (up to `timeoutMs`); the pool stays the app's. */
export async function stopBoss(timeoutMs = 10_000): Promise<void> {
  const boss = state.assayJobBoss;
  state.assayJobBoss = undefined;
  await boss?.stop({ graceful: true, close: false, timeout: timeoutMs });
}
