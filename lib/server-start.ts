import "server-only";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { headlessInit } from "@/lib/workspaces/headless-init";
// Routes finalize runs too (a cancelled comparison or matrix ends its runs), whichever process executes them.
import "@/lib/run-finished-subscribers";

// The two dynamic imports below are deliberate lazy loads, not cycles: a web process started with
// ASSAY_EXECUTOR=off or =process never loads the executor and its model clients, and one that
// executes never loads the send-only job set-up.

const state = globalThis as unknown as { assayStarted?: boolean };

export async function onServerStart() {
  if (state.assayStarted) return;
  state.assayStarted = true;
  if (!env.DATABASE_URL) {
    logger.warn("DATABASE_URL is not set; start Assay with `npm start` or `npm run dev`");
    return;
  }
  try {
    await headlessInit();
  } catch (err) {
    logger.error({ err }, "headless initialisation failed");
  }
  if (env.ASSAY_EXECUTOR === "on") {
    const { startExecutor, stopExecutor } = await import("@/lib/runs/worker");
    startExecutor();
    const stop = () => void stopExecutor(5_000).finally(() => process.exit(0));
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  } else {
    if (env.ASSAY_EXECUTOR === "process") logger.info("the run executor runs in its own process, started by `npm start` beside this one");
    // Send-only: a delivery queued here becomes a job at once; the executor processes work the queues.
    const { startJobs } = await import("@/lib/jobs/runner");
    await startJobs({ work: false }).catch((err: unknown) => logger.error({ err }, "the job library did not start"));
  }
}
