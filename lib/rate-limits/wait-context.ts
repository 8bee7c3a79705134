/**
 * Who is told when a call waits for a provider's rate limit: the case runner runs each case in
 * `withRateLimitWaits(report, …)` and the budget calls `report(true)` once a request has waited
 * WAIT_REPORT_AFTER_MS, `report(false)` when it goes out; the run page shows the case as
 * "waiting for the provider's rate limit". Async context, so no call signature has to carry it.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export type RateLimitWaitReporter = (waiting: boolean) => void;

/** Shorter waits are pacing, not worth a stage change. */
export const WAIT_REPORT_AFTER_MS = 300;

const storage = new AsyncLocalStorage<RateLimitWaitReporter>();

export function withRateLimitWaits<T>(report: RateLimitWaitReporter, fn: () => T): T {
  return storage.run(report, fn);
}

export function currentWaitReporter(): RateLimitWaitReporter | undefined {
  return storage.getStore();
}
