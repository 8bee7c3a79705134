// `npm run worker`: a process that only executes runs (no web server). Start as many as the
// database and the model endpoints allow; they share work through PostgreSQL.
import { logger } from "@/lib/logger";
import { startExecutor, stopExecutor } from "@/lib/runs/worker";

// Runs, and the background jobs (scheduled runs, webhooks, the nightly cleanup: lib/jobs).
const executor = startExecutor();
logger.info({ workerId: executor.workerId }, "worker ready");

async function shutdown() {
  logger.info("worker stopping: finishing in-flight cases");
  await stopExecutor(10_000);
  process.exit(0);
}
process.once("SIGTERM", () => void shutdown());
process.once("SIGINT", () => void shutdown());
