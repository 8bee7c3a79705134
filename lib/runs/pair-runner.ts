/**
 * Runs the arms of one comparison pair, as the A/B engine defines a pair: one after the other in
 * the pair's order with the reset window between them (sequential, randomized), or all at once
 * (concurrent). Each arm is executed and written exactly like a plain case by the executor
 * (./executor.ts), which claims the pair (./claims.ts), holds its slots and records the pair
 * once its arms are done; this module is only the order the arms run in.
 */
import "server-only";
import { logger } from "@/lib/logger";
import { errorOutcome, type CaseJob, type CaseOutcome, type RunContext } from "@/lib/runs/execution-types";
import type { PairSettings } from "@/lib/runs/claims";

/** What the executor lends the pair runner. */
export type PairArmHooks = {
  loadRun: (runId: string) => Promise<RunContext>;
  /** Runs one arm and writes its result (the executor's `execute`). */
  execute: (job: CaseJob, run: RunContext, signal: AbortSignal) => Promise<void>;
  /** Writes an arm's result without running it (the executor's `persist`). */
  persist: (job: CaseJob, outcome: CaseOutcome, durationMs: number) => Promise<void>;
  /** False once the executor is stopping: an arm aborted then is handed back, not skipped. */
  running: () => boolean;
};

/** Runs a claimed pair's arms (`jobs`, in the pair's order); `signals[i]` aborts arm i. */
export async function runPairArms(jobs: CaseJob[], settings: PairSettings, signals: AbortSignal[], hooks: PairArmHooks): Promise<void> {
  const contexts = await Promise.all(jobs.map((j) => hooks.loadRun(j.runId)));
  if (settings.ordering === "concurrent") {
    await Promise.all(jobs.map((job, i) => hooks.execute(job, contexts[i]!, signals[i]!)));
    return;
  }
  for (const [i, job] of jobs.entries()) {
    const signal = signals[i]!;
    if (i > 0 && settings.resetWindowMs > 0) await abortableSleep(settings.resetWindowMs, signal);
    if (signal.aborted && hooks.running()) {
      // Cancelled before this arm started: it never ran.
      await hooks
        .persist(job, { ...errorOutcome("cancelled", "Comparison cancelled before this arm ran"), status: "skipped", stage: "pending" }, 0)
        .catch((err: unknown) => logger.error({ err, caseResultId: job.caseResultId }, "could not record a skipped arm"));
      continue;
    }
    await hooks.execute(job, contexts[i]!, signal);
  }
}

/** Waits `ms` (the reset window) unless the signal aborts first. */
function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
