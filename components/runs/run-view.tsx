"use client";
import Link from "next/link";
import { ShareButton } from "@/components/share/share-button";
import {
  runLabel,
  type CaseResultPage,
  type CaseTableFilters,
  type RunChanges,
  type RunDto,
  type RunSuiteInfo,
  type RunSummary,
} from "@/lib/runs/dto";
import { isActiveRun, runKeys, useRun } from "@/lib/runs/hooks";
import { cancelRunAction } from "@/lib/runs/actions";
import { RunStatusBadge } from "./status-badges";
import { RunProgress } from "./run-progress";
import { RunSummaryCard } from "./run-summary";
import { RunChangesCard } from "./run-changes";
import { RunExports } from "./run-exports";
import { CaseResultsTable } from "./case-results-table";
import { RunCasesTable } from "./run-cases-table";
import { RerunButtons } from "./rerun-buttons";
import type { RunCasesFilters, RunCasesPage } from "@/lib/runs/dto";
import { ExperimentLink, RunMetadata } from "./run-metadata";
import { formatDateTime, TRIGGER_LABELS } from "./format";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { LiveHeader, LiveUpdatesPaused, useRefreshWhenFinished } from "@/components/ui/live-view";
import { suiteCrumbs } from "@/components/suites/suite-crumbs";
import { CancelButton } from "@/components/ui/cancel-button";
import { CompareRunsButton } from "@/components/comparisons/compare-runs-button";
import { PinBaselineButton } from "@/components/alerts/pin-baseline-button";
import { ResolvedVariablesTable } from "@/components/variables/resolved-variables-table";
import { JudgeStatusLink, type JudgeStatus } from "@/components/review/calibration-figures";

/** The run page's loaded data (`run`, `results`, `changes` are where the live queries start). */
type Props = {
  workspaceId: string;
  run: RunDto;
  suite: RunSuiteInfo;
  canEdit: boolean;
  tags: string[];
  results: CaseResultPage;
  filters: CaseTableFilters;
  changes: RunChanges;
  /** The first page of the per-case table and its filter (runs with several trials; null otherwise). */
  cases: RunCasesPage | null;
  caseFilters: RunCasesFilters;
  /** The run this one re-ran, with its number. */
  rerunOf: { id: string; number: number } | null;
  /** Whether the run is its suite's pinned regression baseline, and whether this member may (un)pin it. */
  baseline?: { pinned: boolean; pinnable: boolean; canPin: boolean };
  /** A note above the progress (the demo's guide). */
  guide?: React.ReactNode;
  /** The suite judge's calibration status (null when the suite is gone). */
  judgeStatus?: JudgeStatus | null;
};

/** Asked before cancelling: what happens to the parts not yet finished. */
const CANCEL_RUN = {
  title: "Cancel this run?",
  description: "Cases that have not started are skipped; cases already running finish or stop. The run ends as cancelled.",
  confirmLabel: "Yes, cancel the run",
};

type ResolvedVariables = { values: Record<string, unknown>; sources: Record<string, string> };

function hasVariables(value: unknown): boolean {
  const values = (value as Partial<ResolvedVariables> | null)?.values;
  return !!values && typeof values === "object" && Object.keys(values).length > 0;
}

function isSummary(value: unknown): value is RunSummary {
  return typeof value === "object" && value !== null && "total_tests" in value;
}

/** The live run page: polls the run every second while it is pending or running, then stops. */
export function RunView({
  workspaceId,
  run: initialRun,
  suite,
  canEdit,
  tags,
  results: initialResults,
  filters: initialFilters,
  changes: initialChanges,
  cases,
  caseFilters,
  rerunOf,
  baseline,
  guide,
  judgeStatus = null,
}: Props) {
  const { data: run = initialRun, isError, error } = useRun(workspaceId, initialRun.id, initialRun);
  const active = isActiveRun(run.status);

  const queryKey = runKeys.all(workspaceId, run.id);
  // When the run finishes, refresh everything once more (last case rows, changes, summary).
  useRefreshWhenFinished(active, queryKey);

  const cancel = canEdit && active && (
    <CancelButton confirm={CANCEL_RUN} action={() => cancelRunAction(workspaceId, { id: run.id })} queryKey={queryKey}>
      Cancel run
    </CancelButton>
  );
  const suiteHref = `/w/${workspaceId}/suites/${suite.id}`;
  const agentName = suite.agentName ?? (run.agent_snapshot as { name?: string } | null)?.name ?? null;
  const summary = isSummary(run.summary) ? run.summary : null;
  // Re-runs repeat an ordinary finished run of a suite still in use (comparison arms and matrix runs start again as a whole).
  const rerunnable = canEdit && !active && !run.experiment && !suite.deleted;

  return (
    <div className="space-y-4">
      <Breadcrumbs items={suiteCrumbs(workspaceId, suite, "runs", { label: `Run ${runLabel(run)}` })} />

      <LiveHeader
        className="wrap-anywhere"
        title={
          <>
            {suite.deleted ? (
              suite.name
            ) : (
              <Link href={suiteHref} className="hover:underline">
                {suite.name}
              </Link>
            )}
            <span className="font-normal whitespace-nowrap text-slate-600">Run {runLabel(run)}</span>
            <RunStatusBadge status={run.status} />
          </>
        }
        action={cancel}
      >
        <p className="mt-1 text-sm text-slate-600">
          {agentName && (
            <>
              Agent <span className="font-medium text-slate-800">{agentName}</span> ·{" "}
            </>
          )}
          {TRIGGER_LABELS[run.triggered_by] ?? run.triggered_by} run ·{" "}
          {run.started_at ? `started ${formatDateTime(run.started_at)}` : `queued ${formatDateTime(run.created_at)}`} · concurrency{" "}
          {run.concurrency}
        </p>
        {run.experiment && (
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <ExperimentLink workspaceId={workspaceId} run={run} />
            An experiment: not part of the suite&apos;s history (trend, latest run, regression alerts).
          </p>
        )}
        {rerunOf && (
          <p className="mt-1 text-sm text-slate-600">
            <Link href={`/w/${workspaceId}/runs/${rerunOf.id}`} className="font-medium text-indigo-700 hover:underline">
              Re-run of #{rerunOf.number}
            </Link>
          </p>
        )}
        <RunMetadata metadata={run.metadata} full className="mt-1 text-sm text-slate-600" />
        {judgeStatus && !suite.deleted && (
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
            Judge calibration:
            <JudgeStatusLink href={`${suiteHref}/calibration`} status={judgeStatus} />
          </p>
        )}
      </LiveHeader>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <RunExports workspaceId={workspaceId} runId={run.id} />
        <div className="flex flex-wrap items-start gap-2">
          {rerunnable && <RerunButtons workspaceId={workspaceId} run={run} flakyCases={summary?.flaky_cases ?? 0} />}
          {baseline?.canPin && run.status === "completed" && (baseline.pinned || (!run.experiment && !suite.deleted)) && (
            <PinBaselineButton workspaceId={workspaceId} runId={run.id} pinned={baseline.pinned} />
          )}
          {canEdit && run.status === "completed" && !suite.deleted && <CompareRunsButton workspaceId={workspaceId} runId={run.id} />}
          {canEdit && <ShareButton workspaceId={workspaceId} target={{ kind: "run", id: run.id }} />}
        </div>
      </div>

      <LiveUpdatesPaused error={isError ? error : null} />

      {guide}
      <RunProgress run={run} />
      {hasVariables(run.resolved_variables) && (
        <details className="rounded-lg border border-slate-200 bg-white px-5 py-3 shadow-sm" open>
          <summary className="cursor-pointer text-base font-semibold">Variables</summary>
          <p className="mt-1 text-xs text-slate-500">
            The run-level resolution (run, suite or type); each case&apos;s own values, with test-level defaults and locks, are on its case
            view.
          </p>
          <div className="mt-2">
            <ResolvedVariablesTable resolved={run.resolved_variables as ResolvedVariables} label="Run variables" />
          </div>
        </details>
      )}
      {!active && summary && <RunSummaryCard summary={summary} review={run} cost={run.cost} />}
      <RunChangesCard workspaceId={workspaceId} runId={run.id} live={active} initial={initialChanges} />
      {run.trials > 1 && cases && (
        <RunCasesTable workspaceId={workspaceId} run={run} live={active} initial={cases} initialFilters={caseFilters} />
      )}
      <CaseResultsTable
        workspaceId={workspaceId}
        run={run}
        live={active}
        tags={tags}
        initial={initialResults}
        initialFilters={initialFilters}
        canEdit={canEdit}
        canRerun={rerunnable}
      />
    </div>
  );
}
