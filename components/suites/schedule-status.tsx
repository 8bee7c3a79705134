import Link from "next/link";
import type { ScheduleStatus } from "@/lib/runs/scheduler";
import type { RunStatus } from "@/lib/runs/schemas";
import { runLabel } from "@/lib/runs/dto";
import { RunStatusBadge } from "@/components/runs/status-badges";

/** "Fri, 27 Nov, 02:30" on the workspace zone's clock. */
function inZone(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(new Date(iso));
}

/** The suite page's schedule line: the next scheduled run in the workspace's time zone and how the last one went. */
export function ScheduleStatusLine({ workspaceId, status }: { workspaceId: string; status: ScheduleStatus }) {
  if (!status.next_run_at && !status.last_run) return null;
  const last = status.last_run;
  return (
    <div className="flex flex-wrap items-center gap-x-6 gap-y-1 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm text-slate-700">
      <span>
        Next scheduled run:{" "}
        <span className="font-medium text-slate-900">
          {status.next_run_at ? `${inZone(status.next_run_at, status.time_zone)} (${status.time_zone})` : "none (schedule off)"}
        </span>
      </span>
      {last && (
        <span className="flex flex-wrap items-center gap-2">
          Last scheduled run:
          <Link href={`/w/${workspaceId}/runs/${last.id}`} aria-label={`Run ${runLabel(last)}`} className="text-indigo-700 hover:underline">
            {runLabel(last)}
          </Link>
          <span>{inZone(last.created_at, status.time_zone)}</span>
          <RunStatusBadge status={last.status as RunStatus} />
          {last.pass_rate !== null && <span>{Math.round(last.pass_rate * 100)}% passed</span>}
          {last.status === "failed" && last.error_message && <span className="text-red-700">{last.error_message}</span>}
        </span>
      )}
    </div>
  );
}
