import Link from "next/link";
import type { AlertDto } from "@/lib/alerts/dto";
import { formatDateTime, formatPercent } from "@/components/runs/format";

/** The suite page's open-alert banner: the newest unacknowledged regression, with links to the run and the alerts. */
export function SuiteAlertBanner({ workspaceId, alert, open }: { workspaceId: string; alert: AlertDto; open: number }) {
  return (
    <div
      role="status"
      data-testid="suite-alert-banner"
      className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900"
    >
      <p>
        <strong>Regression:</strong> pass rate {formatPercent(alert.previous_pass_rate)} → {formatPercent(alert.pass_rate)} (−
        {alert.drop_points.toFixed(1)} points) in{" "}
        <Link href={`/w/${workspaceId}/runs/${alert.run_id}`} className="font-medium underline">
          the run of {formatDateTime(alert.created_at)}
        </Link>
        {alert.flipped_cases.length > 0 && `; ${alert.flipped_cases.length} flipped ${alert.flipped_cases.length === 1 ? "case" : "cases"}`}
        .
      </p>
      <Link href={`/w/${workspaceId}/alerts?suite=${alert.suite_id}`} className="font-medium underline">
        {open > 1 ? `See all ${open} open alerts` : "Review and acknowledge"}
      </Link>
    </div>
  );
}
