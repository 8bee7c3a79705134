import Link from "next/link";
import type { Dashboard } from "@/lib/dashboard/service";
import { Section, EmptyState } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { PassRateSparkline } from "@/components/suites/pass-rate-sparkline";
import { RunStatusBadge, CaseStatusBadge } from "@/components/runs/status-badges";
import { formatDateTime, formatPercent } from "@/components/runs/format";
import { LoadDemoButton } from "@/components/demo/load-demo-button";

const link = "font-medium text-indigo-700 hover:underline";

function SeeAll({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <Link href={href} className="text-sm text-indigo-700 hover:underline">
      {children}
    </Link>
  );
}

/** A panel's list, one item a row, or its empty message. */
function PanelList<T>({ items, empty, children }: { items: T[]; empty: string; children: (item: T) => React.ReactNode }) {
  if (items.length === 0) return <p className="text-sm text-slate-600">{empty}</p>;
  return <ul className="divide-y divide-slate-100">{items.map(children)}</ul>;
}

function SuitesPanel({ base, d }: { base: string; d: Dashboard }) {
  return (
    <Section
      title="Suites"
      description="Last pass rate and its trend over the last completed runs."
      actions={<SeeAll href={`${base}/suites`}>All suites ({d.suite_count})</SeeAll>}
    >
      <ul className="divide-y divide-slate-100">
        {d.suites.map((s) => (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
            <Link href={`${base}/suites/${s.id}`} className={`${link} min-w-0 truncate`}>
              {s.name}
            </Link>
            <span className="flex items-center gap-3 text-sm">
              {s.last_run ? (
                <Link
                  href={`${base}/runs/${s.last_run.id}`}
                  className="text-slate-700 tabular-nums hover:underline"
                  aria-label={`${s.name}: last run #${s.last_run.number}, pass rate ${formatPercent(s.last_run.pass_rate)}`}
                >
                  #{s.last_run.number} · {formatPercent(s.last_run.pass_rate)}
                </Link>
              ) : null}
              <PassRateSparkline rates={s.rates} />
            </span>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function ActivePanel({ base, d }: { base: string; d: Dashboard }) {
  return (
    <Section title="Runs in progress" actions={<SeeAll href={`${base}/runs?status=running`}>All runs</SeeAll>}>
      <PanelList items={d.active_runs} empty="No run is in progress.">
        {(r) => (
          <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
            <Link href={`${base}/runs/${r.id}`} className={link}>
              {r.suite_name} #{r.number}
            </Link>
            <span className="flex items-center gap-2 text-slate-600 tabular-nums">
              <RunStatusBadge status={r.status} /> {r.done}/{r.total}
            </span>
          </li>
        )}
      </PanelList>
    </Section>
  );
}

function AlertsPanel({ base, d }: { base: string; d: Dashboard }) {
  return (
    <Section title="Open alerts" actions={<SeeAll href={`${base}/alerts`}>All open alerts ({d.open_alert_count})</SeeAll>}>
      <PanelList items={d.open_alerts} empty="No open alerts.">
        {(a) => (
          <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
            <Link href={`${base}/runs/${a.run_id}`} className={link}>
              {a.suite_name} #{a.run_number}
            </Link>
            <span className="text-red-700 tabular-nums">
              {formatPercent(a.previous_rate)} → {formatPercent(a.pass_rate)}
            </span>
          </li>
        )}
      </PanelList>
    </Section>
  );
}

function FailuresPanel({ base, d }: { base: string; d: Dashboard }) {
  return (
    <Section title="Recent failures" description="The newest failed or errored cases of the suites' runs.">
      <PanelList items={d.failures} empty="No recent failures.">
        {(f) => (
          <li key={f.id} className="py-2 text-sm">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <Link href={`${base}/runs/${f.run_id}/cases/${f.id}`} className={`${link} min-w-0 break-words`}>
                {f.name}
              </Link>
              <span className="flex items-center gap-2 text-xs text-slate-600">
                <CaseStatusBadge status={f.status} />
                {f.suite_name} #{f.run_number} · {formatDateTime(f.created_at)}
              </span>
            </div>
            {f.reason && <p className="mt-0.5 line-clamp-2 text-xs break-words text-slate-600">{f.reason}</p>}
          </li>
        )}
      </PanelList>
    </Section>
  );
}

function ReviewPanel({ base, d }: { base: string; d: Dashboard }) {
  return (
    <Section title="Waiting for review">
      <p className="text-sm text-slate-700">
        {d.review_waiting === 0 ? (
          "Nothing waits for your review."
        ) : (
          <Link href={`${base}/review`} className={link}>
            {d.review_waiting === 1 ? "1 item waits" : `${d.review_waiting} items wait`} for your review
          </Link>
        )}
      </p>
    </Section>
  );
}

/** The workspace's home: suites and their trend, runs in progress, open alerts, recent failures, review. */
export function DashboardView({
  workspaceId,
  dashboard,
  canEdit,
  canLoadDemo,
}: {
  workspaceId: string;
  dashboard: Dashboard;
  canEdit: boolean;
  canLoadDemo: boolean;
}) {
  const base = `/w/${workspaceId}`;
  if (dashboard.suite_count === 0 && dashboard.active_runs.length === 0) {
    return (
      <EmptyState
        title="No suites yet"
        description="A suite holds the test cases of one agent. Create one, or load the demo to see a finished run."
        action={
          canEdit ? (
            <div className="flex flex-col items-center gap-4">
              <Link href={`${base}/suites/new`} className={buttonClass("primary")}>
                Create a suite
              </Link>
              {canLoadDemo && <LoadDemoButton workspaceId={workspaceId} />}
            </div>
          ) : undefined
        }
      />
    );
  }
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div className="space-y-6">
        <SuitesPanel base={base} d={dashboard} />
        <ReviewPanel base={base} d={dashboard} />
      </div>
      <div className="space-y-6">
        <ActivePanel base={base} d={dashboard} />
        <AlertsPanel base={base} d={dashboard} />
        <FailuresPanel base={base} d={dashboard} />
      </div>
    </div>
  );
}
