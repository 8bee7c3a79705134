import Link from "next/link";
import type { AlertDto } from "@/lib/alerts/dto";
import { formatPercent } from "@/components/runs/format";

/**
 * The suite page's open-alert banner: the newest unacknowledged regression. It opens with why the
 * verdicts flipped (the alert's explanation: a case edit, an agent change, both, or neither), then
 * the baseline and the run by number, the drop, with links to the runs and the alerts.
 */
export function SuiteAlertBanner({ workspaceId, alert, open }: { workspaceId: string; alert: AlertDto; open: number }) {
  const flipped = alert.flipped_cases.length;
  return (
    <div
      role="status"
      data-testid="suite-alert-banner"
      className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900"
    >
      <div className="min-w-0 space-y-0.5">
        <p>
          <strong>Regression in run #{alert.run_number}:</strong> {alert.explanation || "the pass rate dropped below its baseline."}
        </p>
        <p>
          {alert.baseline_run_id && (
            <>
              <Link href={`/w/${workspaceId}/runs/${alert.baseline_run_id}`} className="underline">
                {alert.baseline_run_number === null ? "The baseline run" : `Baseline #${alert.baseline_run_number}`}
              </Link>{" "}
              →{" "}
            </>
          )}
          <Link href={`/w/${workspaceId}/runs/${alert.run_id}`} className="font-medium underline">
            run #{alert.run_number}
          </Link>
          : pass rate {formatPercent(alert.previous_pass_rate)} → {formatPercent(alert.pass_rate)} (−{alert.drop_points.toFixed(1)} points)
          {flipped > 0 && `; ${flipped} flipped ${flipped === 1 ? "case" : "cases"}`}.
        </p>
      </div>
      <Link href={`/w/${workspaceId}/alerts?suite=${alert.suite_id}`} className="font-medium underline">
        {open > 1 ? `See all ${open} open alerts` : "Review and acknowledge"}
      </Link>
    </div>
  );
}
