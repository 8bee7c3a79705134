/**
 * Starting and stopping the job library in a process, and running queued jobs by hand in tests.
 * Processes that execute runs start it with workers (`work: true`: they also send the cron jobs
 * and supervise the queues); the web process beside a separate executor starts it send-only, so
 * a delivery it queues becomes a job at once.
 */
import "server-only";
import { logger } from "@/lib/logger";
import { withoutWorkspaceScope } from "@/lib/tenant-scope";
import { runningBoss, startBoss, stopBoss } from "./boss";
import { CATCH_UP_AT_START, JOBS, setWebhookFetch, type JobDefinition } from "./queues";
import type { FetchLike } from "@/lib/net/safe-fetch";

export type StartJobsOptions = {
  /** Work the queues, send the cron jobs and supervise (default true); false: send jobs only. */
  work?: boolean;
  /** How often an idle worker looks for jobs, in seconds (default 2). */
  pollingIntervalSeconds?: number;
  /** Outbound HTTP for webhook deliveries (tests); default the instance's guarded fetch. */
  webhookFetch?: FetchLike;
};

/** Jobs serve every workspace: a handler never inherits the scope of whatever started the library. */
function run(def: JobDefinition, data: object) {
  return withoutWorkspaceScope(() => def.handle(data));
}

const state = globalThis as unknown as { assayJobsStarting?: Promise<void> };

/** Starts the library in this process once (concurrent and later calls share the first start). */
export function startJobs(opts: StartJobsOptions = {}): Promise<void> {
  if (runningBoss() && !state.assayJobsStarting) return Promise.resolve();
  state.assayJobsStarting ??= start(opts).finally(() => (state.assayJobsStarting = undefined));
  return state.assayJobsStarting;
}

/** Queues exist, cron schedules are registered, workers run. */
async function start({ work = true, pollingIntervalSeconds = 2, webhookFetch }: StartJobsOptions): Promise<void> {
  setWebhookFetch(webhookFetch);
  const boss = await startBoss({ maintain: work });
  for (const def of JOBS) if (!(await boss.getQueue(def.name))) await boss.createQueue(def.name, def.queue);
  if (!work) return;
  for (const def of JOBS) {
    if (def.cron) await boss.schedule(def.name, def.cron);
    await boss.work(def.name, { pollingIntervalSeconds, batchSize: 1, localConcurrency: def.concurrency ?? 1 }, async ([job]) => {
      if (job) await run(def, job.data as object);
    });
  }
  for (const name of CATCH_UP_AT_START) await boss.send(name, {});
  logger.info({ queues: JOBS.map((d) => d.name) }, "job library started");
}

export async function stopJobs(timeoutMs?: number): Promise<void> {
  await stopBoss(timeoutMs);
}

/**
 * Runs every job of `name` that is due now (`includeDeferred`: also those waiting for their
 * start time, as if it had come), in this process, and returns how many ran (tests: a
 * deterministic drain instead of waiting for a worker's poll). A handler's error fails its job
 * (pg-boss then retries it per the queue) and is rethrown after the others ran.
 */
export async function runJobsOnce(name: string, { includeDeferred = false }: { includeDeferred?: boolean } = {}): Promise<number> {
  const boss = runningBoss();
  const def = JOBS.find((d) => d.name === name);
  if (!boss || !def) throw new Error(`runJobsOnce: ${boss ? `no job named ${name}` : "the job library is not started"}`);
  let ran = 0;
  let failure: unknown;
  for (;;) {
    const jobs = await boss.fetch<object>(name, { batchSize: 20, ignoreStartAfter: includeDeferred });
    if (jobs.length === 0) break;
    for (const job of jobs) {
      ran++;
      try {
        await run(def, job.data);
        await boss.complete(name, job.id);
      } catch (err) {
        failure ??= err;
        await boss.fail(name, job.id, { message: err instanceof Error ? err.message : String(err) });
      }
    }
  }
  if (failure) throw failure;
  return ran;
}
