import { EventEmitter } from "node:events";
import { withoutWorkspaceScope } from "@/lib/tenant-scope";

/** In-process wake-up for the executor when a run is queued from this process. */
const state = globalThis as unknown as { assayRunEvents?: EventEmitter };
export const runEvents = (state.assayRunEvents ??= new EventEmitter());
runEvents.setMaxListeners(50);

export function notifyRunQueued(runId: string) {
  // Listeners run synchronously here: the executor's tick must not inherit the request's
  // workspace scope (it claims cases of every workspace, and what it starts outlives the request).
  withoutWorkspaceScope(() => runEvents.emit("queued", runId));
}
