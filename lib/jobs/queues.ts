/**
 * Every background job, declared once: its queue's name and options, its cron schedule if it
 * has one, and its handler, which calls a feature's own function. Adding background work means
 * adding an entry here, not another polling loop.
 *
 * - webhook-delivery: one attempt of one WebhookDelivery row. The row keeps the attempts, the
 *   lease and the next due time (the UI and API show them); a failed attempt sends the next job
 *   with `startAfter` = the row's next due time, so the 1 min × 3ⁿ schedule is the row's.
 * - webhook-sweep (every minute): claims whatever rows are due without a job on its way: a
 *   lease that expired with its worker (take-over), a row queued by a process without the
 *   library running, a job that ran a moment before its row was due.
 * - scheduled-runs (every minute): starts the runs of scheduled suites whose slot came; the
 *   suite row's conditional claim (lib/runs/scheduler.ts) keeps it to one run per slot
 *   whichever process's tick gets there.
 * - nightly-cleanup (every minute): the retention cleanup once its nightly slot came; the
 *   CleanupRecord's unique slot is the singleton across processes (lib/retention/cleanup.ts).
 *
 * - run-finished: the replay of a finished run's follow-ups (webhooks, comparison, matrix,
 *   alert) when the process that finished it died before they ran (lib/runs/run-finished.ts).
 *
 * pg-boss sends each cron job once per minute across all processes; the claims in the rows make
 * a duplicate job harmless anyway.
 */
import "server-only";
import type { Queue } from "pg-boss";
import { logger } from "@/lib/logger";
import { startDueScheduledRuns } from "@/lib/runs/scheduler";
import { replayRunFinished, RUN_FINISHED_JOB, type FinishedRun } from "@/lib/runs/run-finished";
// A process that works the jobs replays "run finished": it needs the subscribers.
import "@/lib/run-finished-subscribers";
import { runNightlyCleanupIfDue } from "@/lib/retention/cleanup";
import { WebhookWorker } from "@/lib/webhooks/worker";
import type { FetchLike } from "@/lib/net/safe-fetch";
import { sendDeliveryJob, WEBHOOK_DELIVERY_JOB, type WebhookDeliveryJob } from "@/lib/webhooks/wakeup";

export type JobDefinition<T extends object = object> = {
  name: string;
  queue: Omit<Queue, "name">;
  /** Cron expression (UTC) for a recurring job. */
  cron?: string;
  /** Jobs of this queue one process runs at once (default 1). */
  concurrency?: number;
  handle: (data: T) => Promise<unknown>;
};

const EVERY_MINUTE = "* * * * *";

const settings: { webhookFetch?: FetchLike } = {};

/** Outbound HTTP for deliveries (tests: a loopback-only fetch); default the instance's guarded fetch. */
export function setWebhookFetch(fetch: FetchLike | undefined) {
  settings.webhookFetch = fetch;
}

/** The delivery worker that job handlers use: the next attempt of a failed delivery is a job of its own. */
function deliveryWorker() {
  return new WebhookWorker({
    fetch: settings.webhookFetch,
    scheduleAttempt: (deliveryId, at) => sendDeliveryJob(deliveryId, at).then(() => undefined),
  });
}

const webhookDelivery: JobDefinition<WebhookDeliveryJob> = {
  name: WEBHOOK_DELIVERY_JOB,
  // A slow receiver (up to its 10 s timeout) must not hold up the other deliveries.
  concurrency: 10,
  // `short` with the delivery as singleton key: at most one job per delivery waits in the queue,
  // however many passes (a job, the sweep) scheduled its next attempt. Expiry is longer than an
  // attempt's 10 s timeout; a thrown error (the database, not the receiver) is retried.
  queue: { policy: "short", expireInSeconds: 120, retryLimit: 3, retryDelay: 30, retryBackoff: true },
  handle: async ({ deliveryId }) => {
    const worker = deliveryWorker();
    if ((await worker.tick({ deliveryId })) > 0) return;
    // Not due yet (the database's clock and this one differ by a moment): the row's due time decides.
    const dueAt = await worker.waitingUntil(deliveryId);
    if (dueAt) await sendDeliveryJob(deliveryId, dueAt);
  },
};

const webhookSweep: JobDefinition = {
  name: "webhook-sweep",
  queue: { expireInSeconds: 300, retryLimit: 0 },
  cron: EVERY_MINUTE,
  handle: async () => {
    const worker = deliveryWorker();
    // Batches of ten until nothing due is left.
    while ((await worker.tick()) > 0);
  },
};

const scheduledRuns: JobDefinition = {
  name: "scheduled-runs",
  queue: { expireInSeconds: 600, retryLimit: 0 },
  cron: EVERY_MINUTE,
  handle: async () => {
    const { started, failed } = await startDueScheduledRuns();
    if (started.length || failed.length) logger.info({ started, failed }, "scheduler handled due slots");
  },
};

const nightlyCleanup: JobDefinition = {
  name: "nightly-cleanup",
  // A cleanup of many runs takes a while; its slot is claimed by its record, so it is never retried.
  queue: { expireInSeconds: 6 * 3600, retryLimit: 0 },
  cron: EVERY_MINUTE,
  handle: () => runNightlyCleanupIfDue(),
};

const runFinished: JobDefinition<FinishedRun> = {
  name: RUN_FINISHED_JOB,
  // One per run (its id is the singleton key); deleted by the publishing process once its subscribers ran.
  queue: { policy: "short", expireInSeconds: 600, retryLimit: 3, retryDelay: 60 },
  handle: (run) => replayRunFinished(run),
};

export const JOBS: readonly JobDefinition[] = [
  webhookDelivery as JobDefinition,
  webhookSweep,
  scheduledRuns,
  nightlyCleanup,
  runFinished as JobDefinition,
];

/** The jobs that catch up at start-up at once instead of at the next minute (slots missed while everything was down). */
export const CATCH_UP_AT_START = ["scheduled-runs", "nightly-cleanup", "webhook-sweep"];
