import { loadAlertBell } from "@/lib/alerts/loaders";
import { StreamedCount } from "./streamed-count";
import { CountedNavLink } from "./counted-nav-link";

/** The sidebar's "Alerts" item with the number of open alerts (the bell's count, also reachable from a phone's menu). */
export function AlertsNavLink({ workspaceId }: { workspaceId: string }) {
  const href = `/w/${workspaceId}/alerts`;
  return (
    <StreamedCount
      workspaceId={workspaceId}
      load={loadAlertBell}
      render={(open) => <CountedNavLink href={href} name="Alerts" open={open} countLabel={(n) => `${n} open`} tone="red" />}
    />
  );
}
