import Link from "next/link";
import { loadAlertBell } from "@/lib/alerts/loaders";
import { countText, StreamedCount } from "@/components/shell/streamed-count";
import { cn } from "@/components/ui/cn";

function BellIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-5 w-5">
      <path d="M10 2a6 6 0 0 0-6 6v2.59l-1.7 1.7A1 1 0 0 0 3 14h14a1 1 0 0 0 .7-1.71L16 10.59V8a6 6 0 0 0-6-6Zm0 16a3 3 0 0 1-2.83-2h5.66A3 3 0 0 1 10 18Z" />
    </svg>
  );
}

function Bell({ href, open }: { href: string; open: number | null }) {
  const label = open === null ? "Alerts" : open === 0 ? "Alerts: none open" : `Alerts: ${open} unacknowledged`;
  return (
    <Link
      href={href}
      aria-label={label}
      title={label}
      // The fallback has its own test id: while the count streams in, React briefly keeps both in the DOM.
      data-testid={open === null ? "alert-bell-loading" : "alert-bell"}
      className={cn("relative inline-flex rounded-md p-1.5 hover:bg-slate-100", open ? "text-red-700" : "text-slate-500")}
    >
      <BellIcon />
      {open ? (
        <span
          data-testid="alert-bell-count"
          className="absolute -top-1 -right-1 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs leading-5 font-semibold text-white"
        >
          {countText(open)}
        </span>
      ) : null}
    </Link>
  );
}

/**
 * The shell's bell: links to the open alerts and shows how many nobody acknowledged yet. The
 * count streams in, so the shell never waits for it; acknowledging revalidates the layout, and
 * every full page load reads it afresh.
 */
export function AlertBell({ workspaceId }: { workspaceId: string }) {
  const href = `/w/${workspaceId}/alerts`;
  return <StreamedCount workspaceId={workspaceId} load={loadAlertBell} render={(open) => <Bell href={href} open={open} />} />;
}
