import Link from "next/link";
import type { AlertDto } from "@/lib/alerts/dto";
import { Badge } from "@/components/ui/card";
import { formatDateTime, formatPercent } from "@/components/runs/format";
import { CauseBadge } from "@/components/runs/cause-badge";
import { AcknowledgeButton } from "./acknowledge-button";
import { RunMetadata } from "@/components/runs/run-metadata";

const MAX_SHOWN_FLIPS = 20;

/**
 * One regression alert: first why the verdicts flipped (the explanation: case edits, an agent
 * change, both, or neither), then the pass rates and the drop in points, the run and its baseline
 * by number, where the run comes from, the flipped cases (linked to their results) each with its
 * cause, and who acknowledged it.
 */
export function AlertCard({ workspaceId, alert }: { workspaceId: string; alert: AlertDto }) {
  const runHref = `/w/${workspaceId}/runs/${alert.run_id}`;
  const label = `the regression in ${alert.suite_name} from ${formatDateTime(alert.created_at)}`;
  return (
    <article aria-label={`Regression in ${alert.suite_name}`} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-3">
        {/* Beside the acknowledge button when there is room, above it on a phone. */}
        <div className="min-w-0 flex-1 basis-64">
          <h2 className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
            <Link href={`/w/${workspaceId}/suites/${alert.suite_id}`} className="min-w-0 break-words hover:underline">
              {alert.suite_name}
            </Link>
            {alert.acknowledged_at ? <Badge tone="slate">Acknowledged</Badge> : <Badge tone="red">Open</Badge>}
          </h2>
          {alert.explanation && (
            <p className="mt-1 text-sm font-medium text-slate-900" data-testid="alert-explanation">
              {alert.explanation}
            </p>
          )}
          <p className="mt-1 text-sm text-slate-700">
            Pass rate <span className="font-medium">{formatPercent(alert.previous_pass_rate)}</span> →{" "}
            <span className="font-medium">{formatPercent(alert.pass_rate)}</span>{" "}
            <span className="font-semibold text-red-700" data-testid="alert-drop">
              −{alert.drop_points.toFixed(1)} points
            </span>
          </p>
          <p className="mt-1 text-xs text-slate-500">
            Raised {formatDateTime(alert.created_at)} ·{" "}
            <Link href={runHref} className="text-indigo-700 underline hover:text-indigo-900">
              run #{alert.run_number}
            </Link>
            {alert.baseline_run_id && (
              <>
                {" "}
                vs{" "}
                <Link href={`/w/${workspaceId}/runs/${alert.baseline_run_id}`} className="text-indigo-700 underline hover:text-indigo-900">
                  {alert.baseline_run_number === null ? "its baseline run" : `baseline #${alert.baseline_run_number}`}
                </Link>
              </>
            )}
          </p>
          <p className="mt-1 text-xs text-slate-600" data-testid="alert-run-metadata">
            <RunMetadata metadata={alert.run_metadata} full />
          </p>
        </div>
        <div className="shrink-0 text-right text-xs text-slate-600">
          {alert.acknowledged_at ? (
            <p data-testid="alert-acknowledged">
              Acknowledged by {alert.acknowledged_by?.name ?? "a former member"}
              <br />
              {formatDateTime(alert.acknowledged_at)}
            </p>
          ) : (
            <AcknowledgeButton workspaceId={workspaceId} alertId={alert.id} label={label} />
          )}
        </div>
      </div>
      {alert.flipped_cases.length > 0 && (
        <AlertCases
          title={`${alert.flipped_cases.length} ${alert.flipped_cases.length === 1 ? "case" : "cases"} went from passed to failed or error`}
          label="Flipped cases"
          cases={alert.flipped_cases}
          runHref={runHref}
          detail={(c) => (
            <>
              <span className="text-slate-500">
                passed → <span className={c.to === "error" ? "text-amber-700" : "text-red-700"}>{c.to}</span>
              </span>
              {c.cause && <CauseBadge cause={c.cause} caseChanged={c.case_changed} />}
            </>
          )}
        />
      )}
      {alert.flaky_cases.length > 0 && (
        <AlertCases
          title={`${alert.flaky_cases.length} flaky ${alert.flaky_cases.length === 1 ? "case" : "cases"} also did worse (not counted as regressions)`}
          label="Flaky cases"
          cases={alert.flaky_cases}
          runHref={runHref}
          detail={(c) => (
            <span className="text-slate-500">
              {c.flaky === "trials" ? "passed and failed across its trials" : "its verdict flips often in its history"}
            </span>
          )}
        />
      )}
    </article>
  );
}

type AlertCase = AlertDto["flipped_cases"][number];

/** One list of the alert's cases, each linked to its result in the run; past MAX_SHOWN_FLIPS, a link to the run's failed cases. */
function AlertCases(props: {
  title: string;
  label: string;
  cases: AlertCase[];
  runHref: string;
  detail: (c: AlertCase) => React.ReactNode;
}) {
  const shown = props.cases.slice(0, MAX_SHOWN_FLIPS);
  return (
    <div className="mt-3">
      <h3 className="text-sm font-medium text-slate-800">{props.title}</h3>
      <ul aria-label={props.label} className="mt-1 space-y-0.5 text-sm">
        {shown.map((c) => (
          <li key={c.case_result_id} className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
            <Link
              href={`${props.runHref}/cases/${c.case_result_id}`}
              className="min-w-0 break-words text-indigo-700 underline hover:text-indigo-900"
            >
              {c.name}
            </Link>
            {props.detail(c)}
          </li>
        ))}
      </ul>
      {props.cases.length > shown.length && (
        <p className="mt-1 text-xs text-slate-500">
          and {props.cases.length - shown.length} more:{" "}
          <Link href={`${props.runHref}?status=failed`} className="text-indigo-700 underline hover:text-indigo-900">
            see the run&apos;s failed cases
          </Link>
        </p>
      )}
    </div>
  );
}
