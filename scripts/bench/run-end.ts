// Wakes the bench's completion watcher when this process publishes a run's end ("run finished",
// lib/runs/run-finished.ts), instead of the watcher polling PostgreSQL every 20 ms to see it:
// those polls cost the bench process and the database CPU the report counted as the executor's.
// Register before lib/run-finished-subscribers, so the bench hears the end before the follow-ups
// (webhooks, alerts) run. The watcher still reads the status from the database: the event only
// says when to look.
import { EventEmitter } from "node:events";
import { onRunFinished } from "@/lib/runs/run-finished";

const ends = new EventEmitter();
ends.setMaxListeners(0);
let listening = false;

/** Subscribes the bench to finished runs (once per process). */
export function listenForRunEnds(): void {
  if (listening) return;
  listening = true;
  onRunFinished("bench: run ends", {
    failure: "could not wake the bench's watcher",
    handle: async (run) => void ends.emit(run.runId),
  });
}

/** Resolves when this process publishes the end of `runId`; `cancel` stops listening. */
export function runEnd(runId: string): { ended: Promise<void>; cancel: () => void } {
  let cancel = () => {};
  const ended = new Promise<void>((resolve) => {
    const onEnd = () => resolve();
    ends.once(runId, onEnd);
    cancel = () => void ends.off(runId, onEnd);
  });
  return { ended, cancel };
}
