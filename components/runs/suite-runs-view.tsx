"use client";
import { useEffect, useId, useRef, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { runLabel, type RunHistoryRow, type SuiteAnalytics } from "@/lib/runs/dto";
import { RUN_STATUSES, type RunStatus } from "@/lib/runs/schemas";
import { apiGet } from "@/lib/runs/hooks";
import { EmptyState } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { PrevNextPagination } from "@/components/ui/pagination";
import { Options, Select } from "@/components/ui/field";
import { cn } from "@/components/ui/cn";
import { RUN_STATUS_LABELS, RunStatusBadge } from "./status-badges";
import { formatDateTime, formatPercent } from "./format";
import { runHref } from "./charts-common";
import { PassRateChart } from "./charts-pass-rate";
import { MetricTrendChart } from "./charts-metrics";
import { TagPassRateChart } from "./charts-tags";
import { SuiteRunsTable } from "./suite-runs-table";
import {
  DEFAULT_TREND_WINDOW,
  HISTORY_PAGE_SIZE,
  historyHref,
  type SuiteRunsKind,
  type SuiteRunsLocation,
} from "@/lib/runs/suite-runs-location";

export type SuiteRunsPage = { data: RunHistoryRow[]; next_cursor: string | null };

const WINDOWS = [20, 50, 100, 200, 500];
const TAG_SCOPES = [1, 5, 10, 20];
/** How often the charts and table refresh while a run of the suite is pending or running. */
const LIVE_INTERVAL_MS = 5_000;

const analyticsUrl = (w: string, s: string, runs: number, tagRuns: number) =>
  `/api/w/${w}/suites/${s}/analytics?runs=${runs}&tag_runs=${tagRuns}`;
function runsUrl(w: string, s: string, loc: SuiteRunsLocation) {
  const q = new URLSearchParams({ limit: String(HISTORY_PAGE_SIZE), kind: loc.kind });
  if (loc.cursor) q.set("cursor", loc.cursor);
  if (loc.status) q.set("status", loc.status);
  return `/api/w/${w}/suites/${s}/analytics/runs?${q}`;
}

const suiteKeys = {
  all: (w: string, s: string) => ["suite-runs", w, s] as const,
  analytics: (w: string, s: string, runs: number, tagRuns: number) => ["suite-runs", w, s, "analytics", runs, tagRuns] as const,
  history: (w: string, s: string, loc: SuiteRunsLocation) =>
    ["suite-runs", w, s, "history", loc.kind, loc.cursor ?? "", loc.status ?? ""] as const,
};

type Props = {
  workspaceId: string;
  suiteId: string;
  initialAnalytics: SuiteAnalytics;
  initialRuns: SuiteRunsPage;
  location: SuiteRunsLocation;
  /** The "Run suite" button (editors only), also offered by the empty state. */
  startRun?: React.ReactNode;
  /** The "Flaky cases" card (server-rendered), shown with the charts once the suite has a run. */
  flakyCases?: React.ReactNode;
};

/**
 * Trend charts and runs of a suite; refreshes every 5 s while any of its runs is active. The
 * charts and the latest run are the suite's history (ordinary runs); the table shows the history
 * or, under the Experiments filter, the comparison arms and matrix combinations.
 */
export function SuiteRunsView({ workspaceId, suiteId, initialAnalytics, initialRuns, location, startRun, flakyCases }: Props) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const uid = useId();
  const [loadedAt] = useState(() => Date.now());
  const [windowSize, setWindowSize] = useState(DEFAULT_TREND_WINDOW);
  const [tagRuns, setTagRuns] = useState(1);
  const isInitial = windowSize === DEFAULT_TREND_WINDOW && tagRuns === 1;

  const analyticsQuery = useQuery({
    queryKey: suiteKeys.analytics(workspaceId, suiteId, windowSize, tagRuns),
    queryFn: ({ signal }) => apiGet<SuiteAnalytics>(analyticsUrl(workspaceId, suiteId, windowSize, tagRuns), signal),
    initialData: isInitial ? initialAnalytics : undefined,
    initialDataUpdatedAt: isInitial ? loadedAt : undefined,
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (q) => ((q.state.data?.active_runs ?? 0) > 0 ? LIVE_INTERVAL_MS : false),
  });
  const analytics = analyticsQuery.data ?? initialAnalytics;
  const live = analytics.active_runs > 0;

  const runsQuery = useQuery({
    queryKey: suiteKeys.history(workspaceId, suiteId, location),
    queryFn: ({ signal }) => apiGet<SuiteRunsPage>(runsUrl(workspaceId, suiteId, location), signal),
    initialData: initialRuns,
    initialDataUpdatedAt: loadedAt,
    staleTime: 0,
    refetchInterval: live ? LIVE_INTERVAL_MS : false,
  });
  const runs = runsQuery.data ?? initialRuns;

  // A run finished or a new one started: refresh the table (and charts) once more.
  const signature = `${analytics.latest?.id ?? ""}:${analytics.latest?.status ?? ""}:${analytics.active_runs}`;
  const lastSignature = useRef(signature);
  useEffect(() => {
    if (lastSignature.current !== signature) {
      lastSignature.current = signature;
      void queryClient.invalidateQueries({ queryKey: suiteKeys.all(workspaceId, suiteId) });
    }
  }, [signature, queryClient, workspaceId, suiteId]);

  const base = `/w/${workspaceId}/suites/${suiteId}/runs`;
  const latest = analytics.latest;
  const error = analyticsQuery.isError || runsQuery.isError;
  // Without an ordinary run there is no history to chart or list, but the suite's experiments
  // (a comparison run before any ordinary run) stay reachable under their filter.
  const noHistory = !latest && location.kind === "ordinary";
  /** Another page of the list under the same kind and status: where it starts, and the cursors "Newer runs" walks back. */
  const pageHref = (cursor: string | undefined, prev: string[]) =>
    historyHref(base, { kind: location.kind, status: location.status, cursor, prev });
  return (
    <div className="space-y-4">
      {!latest ? (
        <EmptyState
          title="No runs yet — start one"
          description={
            startRun ? "Run the suite's active test cases to see pass-rate trends here." : "Editors can start runs of this suite."
          }
          action={startRun}
        />
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
            <span>Latest run:</span>
            <Link
              href={runHref(workspaceId, latest.id)}
              aria-label={`Run ${runLabel(latest)}`}
              className="font-medium text-indigo-600 tabular-nums hover:underline"
            >
              {runLabel(latest)}
            </Link>
            <RunStatusBadge status={latest.status} />
            <span>
              {formatDateTime(latest.created_at)} · {formatPercent(latest.pass_rate)} pass rate · {latest.done}/{latest.total} cases done
            </span>
            {live && (
              <span role="status" className="text-blue-700">
                {analytics.active_runs === 1 ? "1 run in progress" : `${analytics.active_runs} runs in progress`} — refreshing every 5 s
              </span>
            )}
            {error && <span className="text-red-700">Could not refresh; showing the last loaded data.</span>}
          </div>

          {analytics.trend.length === 0 ? (
            <EmptyState title="No finished runs yet" description="The trend appears when the first run finishes." />
          ) : (
            <>
              <PassRateChart
                workspaceId={workspaceId}
                points={analytics.trend}
                controls={
                  <label className="flex items-center gap-2 text-xs text-slate-600">
                    Show
                    <Select className="w-auto py-1 text-xs" value={windowSize} onChange={(e) => setWindowSize(Number(e.target.value))}>
                      <Options values={WINDOWS} labels={(n) => `last ${n} runs`} />
                    </Select>
                  </label>
                }
              />
              <div className="grid gap-4 lg:grid-cols-2">
                {analytics.metric_names.length > 0 && (
                  <MetricTrendChart workspaceId={workspaceId} points={analytics.metric_trend} names={analytics.metric_names} />
                )}
                <TagPassRateChart
                  tags={analytics.tag_pass_rates}
                  scope={analytics.tag_runs <= 1 ? "in the latest completed run" : `over the last ${analytics.tag_runs} completed runs`}
                  controls={
                    <label className="flex items-center gap-2 text-xs text-slate-600">
                      Over
                      <Select className="w-auto py-1 text-xs" value={tagRuns} onChange={(e) => setTagRuns(Number(e.target.value))}>
                        <Options values={TAG_SCOPES} labels={(n) => (n === 1 ? "the latest run" : `last ${n} runs`)} />
                      </Select>
                    </label>
                  }
                />
              </div>
            </>
          )}
          {flakyCases}
        </>
      )}

      <section aria-labelledby={`${uid}-history`} className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <div>
            <h2 id={`${uid}-history`} className="text-base font-semibold text-slate-900">
              {location.kind === "experiment" ? "Experiment runs" : "Run history"}
            </h2>
            {location.kind === "experiment" && (
              <p className="mt-0.5 text-sm text-slate-600">
                Comparison arms and matrix combinations. They belong to their comparison or matrix, not to the suite&apos;s history: the
                trend, the latest run and regression alerts leave them out.
              </p>
            )}
          </div>
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
            <RunKindTabs base={base} location={location} />
            <div className="flex items-center gap-2">
              <label htmlFor={`${uid}-status`} className="text-slate-600">
                Status
              </label>
              <Select
                id={`${uid}-status`}
                className="w-auto py-1"
                value={location.status ?? ""}
                onChange={(e) =>
                  router.push(
                    historyHref(base, { kind: location.kind, prev: [], status: (e.target.value || undefined) as RunStatus | undefined }),
                  )
                }
              >
                <Options values={RUN_STATUSES} labels={RUN_STATUS_LABELS} none="All" />
              </Select>
            </div>
          </div>
        </div>
        {noHistory ? null : runs.data.length === 0 ? (
          <EmptyRuns base={base} location={location} />
        ) : (
          <SuiteRunsTable workspaceId={workspaceId} rows={runs.data} kind={location.kind} />
        )}
        <PrevNextPagination
          label="Run history pages"
          prev={location.cursor ? { href: pageHref(location.prev[location.prev.length - 1], location.prev.slice(0, -1)) } : null}
          prevLabel="← Newer runs"
          next={runs.next_cursor ? { href: pageHref(runs.next_cursor, [...location.prev, location.cursor ?? ""]) } : null}
          nextLabel="Older runs →"
        />
      </section>
    </div>
  );
}

const KINDS: { kind: SuiteRunsKind; label: string }[] = [
  { kind: "ordinary", label: "History" },
  { kind: "experiment", label: "Experiments" },
];

/** History (ordinary runs) or Experiments (comparison arms, matrix combinations): links, so the choice is in the URL. */
function RunKindTabs({ base, location }: { base: string; location: SuiteRunsLocation }) {
  return (
    <nav aria-label="Runs to list" className="inline-flex max-w-full flex-wrap rounded-md border border-slate-300 bg-white p-0.5">
      {KINDS.map(({ kind, label }) => {
        const current = location.kind === kind;
        return (
          <Link
            key={kind}
            href={historyHref(base, { kind, prev: [], status: location.status })}
            aria-current={current ? "page" : undefined}
            className={cn(
              "rounded px-2.5 py-1 font-medium",
              current ? "bg-indigo-600 text-white" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900",
            )}
          >
            {label}
          </Link>
        );
      })}
    </nav>
  );
}

function EmptyRuns({ base, location }: { base: string; location: SuiteRunsLocation }) {
  const status = location.status ? `${RUN_STATUS_LABELS[location.status].toLowerCase()} ` : "";
  if (location.kind === "experiment" && !location.cursor)
    return (
      <EmptyState
        title={`No ${status}experiment runs`}
        description="The runs of this suite's A/B comparisons and matrix runs are listed here."
        action={
          location.status ? (
            <Link href={historyHref(base, { kind: "experiment", prev: [] })} className={buttonClass("secondary")}>
              Show all experiment runs
            </Link>
          ) : undefined
        }
      />
    );
  return (
    <EmptyState
      title={location.status ? `No ${status}runs` : "No runs on this page"}
      action={
        <Link href={historyHref(base, { kind: location.kind, prev: [] })} className={buttonClass("secondary")}>
          Show all runs
        </Link>
      }
    />
  );
}
