import "server-only";
import { env } from "@/lib/env";
import { Executor } from "@/lib/runs/executor";
import { createCaseRunner } from "@/lib/runs/case-runner";
import { setDefaultEndpointConcurrency } from "@/lib/llm";
import { warmUpModelCalls } from "@/lib/llm/warm-up";
import { logger } from "@/lib/logger";
import { startJobs, stopJobs } from "@/lib/jobs/runner";
import { listenForWakeups, runEvents, WAKEUP_CHANNELS } from "@/lib/runs/wakeup";
import { startExecutorHeartbeat } from "@/lib/health/service";
// The executor finalizes runs: what follows a finished run must be subscribed in its process.
import "@/lib/run-finished-subscribers";

const state = globalThis as unknown as {
  assayExecutor?: Executor;
  assayStopListening?: () => Promise<void>;
  assayStopHeartbeat?: () => Promise<void>;
};

/** Starts this process's executor once (kept on globalThis so hot reload never starts a second). */
export function startExecutor(): Executor {
  if (!state.assayExecutor) {
    setDefaultEndpointConcurrency(env.ASSAY_MODEL_CONCURRENCY);
    state.assayExecutor = new Executor({
      runner: createCaseRunner({ preconnect: true }),
      maxSlots: env.ASSAY_WORKER_SLOTS,
      workspaceMaxRunning: env.ASSAY_WORKSPACE_MAX_RUNNING ?? null,
      warmUp: () => warmUpModelCalls(),
    });
    state.assayExecutor.start();
    // /api/health and the run page learn from this row that runs are being executed.
    state.assayStopHeartbeat = startExecutorHeartbeat(state.assayExecutor.workerId);
    // Background jobs (webhook deliveries, scheduled runs, the nightly cleanup) are worked by
    // every process that executes runs; their queues are in PostgreSQL (lib/jobs).
    startJobs().catch((err: unknown) => logger.error({ err }, "the job library did not start"));
    // Runs queued by other processes (the web server) wake this one at once.
    state.assayStopListening = listenForWakeups((channel, payload) => {
      if (channel === WAKEUP_CHANNELS.run) runEvents.emit("queued", payload);
    });
  }
  return state.assayExecutor;
}

export async function stopExecutor(graceMs?: number) {
  const e = state.assayExecutor;
  state.assayExecutor = undefined;
  const stopListening = state.assayStopListening;
  state.assayStopListening = undefined;
  const stopHeartbeat = state.assayStopHeartbeat;
  state.assayStopHeartbeat = undefined;
  await Promise.all([e?.stop(graceMs), stopJobs(graceMs), stopListening?.()]);
  await stopHeartbeat?.();
}
