/**
 * The "run finished" event. finalizeRunIfDone (./finalize.ts) locks a run, sums its results and
 * sets its status; whatever follows in other features (webhooks, the comparison or matrix the
 * run belongs to, the regression alert) subscribes here, so the run modules never import the
 * features built on top of them. The subscribers are registered in one place,
 * lib/run-finished-subscribers.ts, imported by every entry point that finalizes runs (the web
 * process via lib/server-start.ts, the executor via ./worker.ts, the tests' setup).
 *
 * Delivery is in-process, after the run's transaction committed, in registration order, each
 * subscriber awaited before the next. A "run finished" subscriber that throws is logged and the
 * next one still runs: the run's status is already stored and is never undone by what follows it.
 *
 * Durable too: before the subscribers run, a `run-finished` job is sent to the job library
 * (lib/jobs) to start in two minutes, and deleted once they all ran. A process that dies in
 * between (or has no subscribers) leaves the job, and a process working the jobs replays the
 * event: the subscribers then run again with `replay` set, and each does only what is missing
 * (no second webhook, no second alert; a comparison or matrix status is recomputed anyway).
 *
 * The registry lives on globalThis: Next.js bundles instrumentation and route handlers
 * separately, and a run finished from a route (a cancelled comparison) must reach the
 * subscribers registered at start-up.
 */
import "server-only";
import { logger } from "@/lib/logger";
import { deleteJob, sendJob } from "@/lib/jobs/boss";
import type { RunStatus } from "@/lib/runs/schemas";

export const RUN_FINISHED_JOB = "run-finished";
/** How long the in-process subscribers have before another process replays the event. */
const REPLAY_AFTER_SECONDS = 120;

/** A run that has just ended: its final status and what it belongs to. */
export type FinishedRun = {
  runId: string;
  status: Extract<RunStatus, "completed" | "failed" | "cancelled">;
  suiteId: string;
  workspaceId: string;
  comparisonId: string | null;
  matrixId: string | null;
  /** The run's executed pass rate (summary.executed_pass_rate). */
  passRate: number;
  /** Set when the job library replays the event: a subscriber skips what was already done. */
  replay?: boolean;
};

/** A run that cannot proceed (failRun): its reason, before its in-flight cases have finished. */
export type StoppedRun = { runId: string; comparisonId: string | null; message: string };

type Subscriber<T> = {
  /** What the log says when this subscriber throws, e.g. "could not finish the comparison". */
  failure: string;
  handle: (event: T) => Promise<unknown>;
};

type Registry = { finished: Map<string, Subscriber<FinishedRun>>; cannotProceed: Map<string, Subscriber<StoppedRun>> };

const state = globalThis as unknown as { assayRunFinished?: Registry };
function registry(): Registry {
  state.assayRunFinished ??= { finished: new Map(), cannotProceed: new Map() };
  return state.assayRunFinished;
}

/**
 * Subscribes `name` to finished runs; registering a name again replaces it (hot reload) and
 * keeps its place. Returns the unsubscribe.
 */
export function onRunFinished(name: string, subscriber: Subscriber<FinishedRun>): () => void {
  const { finished } = registry();
  finished.set(name, subscriber);
  return () => void (finished.get(name) === subscriber && finished.delete(name));
}

/** Subscribes `name` to runs that cannot proceed. */
export function onRunCannotProceed(name: string, subscriber: Subscriber<StoppedRun>): void {
  registry().cannotProceed.set(name, subscriber);
}

/** The names subscribed to each event, in the order they run. */
export function runFinishedSubscribers(): { finished: string[]; cannotProceed: string[] } {
  const r = registry();
  return { finished: [...r.finished.keys()], cannotProceed: [...r.cannotProceed.keys()] };
}

/** Logs, at the loudest level, an event no subscriber is registered for; true when there is none. */
function unheard(event: string, runId: string, subscribers: Map<string, unknown>): boolean {
  if (subscribers.size > 0) return false;
  // A process that finalizes runs without the subscribers would silently drop webhooks,
  // comparisons, matrices and alerts: say so on every occurrence.
  logger.error(
    { runId, event },
    "no run-finished subscribers are registered in this process: import @/lib/run-finished-subscribers at start-up",
  );
  return true;
}

/**
 * Publishes a finished run: sends the replay job, runs every subscriber in order (an error is
 * logged, never thrown), then deletes the job.
 */
export async function publishRunFinished(run: FinishedRun): Promise<void> {
  const replay = await sendJob(RUN_FINISHED_JOB, run, { singletonKey: run.runId, startAfter: REPLAY_AFTER_SECONDS }).catch(
    (err: unknown) => {
      logger.warn({ err, runId: run.runId }, "could not send the run-finished job; the follow-ups run in this process only");
      return null;
    },
  );
  if (await runSubscribers(run))
    if (replay)
      await deleteJob(RUN_FINISHED_JOB, replay).catch((err: unknown) =>
        logger.warn({ err, runId: run.runId }, "run-finished job left behind"),
      );
}

/** The job library's replay of a finished run whose publishing process did not see it through. */
export async function replayRunFinished(run: FinishedRun): Promise<void> {
  if (!(await runSubscribers({ ...run, replay: true }))) throw new Error("no run-finished subscribers are registered in this process");
}

/** Runs every "run finished" subscriber in order; false when there is none. */
async function runSubscribers(run: FinishedRun): Promise<boolean> {
  const { finished } = registry();
  if (unheard("run finished", run.runId, finished)) return false;
  for (const [name, subscriber] of finished) {
    try {
      await subscriber.handle(run);
    } catch (err) {
      logger.error({ err, runId: run.runId, subscriber: name }, subscriber.failure);
    }
  }
  return true;
}

/**
 * Runs every "run cannot proceed" subscriber in order. Unlike a finished run's, an error here
 * reaches failRun's caller, as an error stopping the sibling arms always has.
 */
export async function publishRunCannotProceed(run: StoppedRun): Promise<void> {
  const { cannotProceed } = registry();
  if (unheard("run cannot proceed", run.runId, cannotProceed)) return;
  for (const subscriber of cannotProceed.values()) await subscriber.handle(run);
}
