import { EventEmitter } from "node:events";

/** In-process wake-up for the executor when a run is queued from this process. */
const state = globalThis as unknown as { assayRunEvents?: EventEmitter };
export const runEvents = (state.assayRunEvents ??= new EventEmitter());
runEvents.setMaxListeners(50);

export function notifyRunQueued(runId: string) {
  runEvents.emit("queued", runId);
}
