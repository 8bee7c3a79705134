"use client";
import { useExecutorHealth } from "@/lib/health/hooks";
import { formatDateTime } from "./format";

/** How long the executor must be gone before a live run says it is waiting (a restart takes a few seconds). */
const GRACE_SECONDS = 3;

/**
 * On a live run: "Waiting for the executor" once no process has executed runs for a few seconds
 * (it died and the launcher is restarting it, or none runs at all), so a run that stopped moving
 * says why instead of looking stuck.
 */
export function ExecutorNotice({ live }: { live: boolean }) {
  const { data } = useExecutorHealth(live);
  if (!live || !data || data.state === "up") return null;
  if (data.seconds_since_heartbeat !== null && data.seconds_since_heartbeat < GRACE_SECONDS) return null;
  return (
    <div
      role="status"
      className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      data-testid="executor-notice"
    >
      <span className="font-medium">Waiting for the executor: </span>
      {data.state === "restarting"
        ? `it stopped and is being restarted${data.restarts ? ` (restart ${data.restarts})` : ""}; this run goes on as soon as it is back.`
        : `no process is executing runs${data.last_heartbeat_at ? ` (last seen ${formatDateTime(data.last_heartbeat_at)})` : ""}. Start one with npm start or npm run worker.`}
    </div>
  );
}
