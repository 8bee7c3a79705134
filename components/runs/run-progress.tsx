"use client";
import type { RunDto } from "@/lib/runs/dto";
import { isActiveRun } from "@/lib/runs/hooks";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { formatDuration, formatNumber, formatPercent } from "./format";
import { useNow } from "./use-now";
import { ExecutorNotice } from "./executor-notice";
import { ProgressBar } from "@/components/ui/progress-bar";
import { Stat } from "@/components/ui/stat";
import { FailureNotice } from "@/components/ui/live-view";

/** Milliseconds the run has been going (or went), or null before it started. */
export function elapsedMs(run: Pick<RunDto, "started_at" | "completed_at">, now: number | null): number | null {
  if (!run.started_at) return null;
  const start = Date.parse(run.started_at);
  const end = run.completed_at ? Date.parse(run.completed_at) : now;
  return end === null ? null : Math.max(0, end - start);
}

/**
 * Remaining time from the average time per finished case so far (wall clock, so concurrency is
 * included). Cases skipped up front (not runnable) finish instantly and are left out of the rate.
 */
export function etaMs(run: RunDto, elapsed: number | null): number | null {
  const finished = run.passed_cases + run.failed_cases + run.error_cases;
  const remaining = run.total_cases - run.done_cases;
  if (elapsed === null || finished === 0 || remaining <= 0) return null;
  return (elapsed / finished) * remaining;
}

/**
 * Where a run stands, as the card says it. `finishing`: every case is done but the run is not
 * marked finished yet (the totals are written per case, the status once the last one is in, so a
 * poll can land in between); `cancelling`: a cancel was requested and the run is winding down.
 */
export type ProgressPhase = "waiting" | "running" | "finishing" | "cancelling" | "completed" | "failed" | "cancelled";

export type ProgressFacts = {
  phase: ProgressPhase;
  /** One line on where the run stands, in the same terms as the numbers. */
  headline: string;
  done: string;
  elapsed: string;
  eta: string;
  passRate: string;
};

const cases = (n: number) => `${formatNumber(n)} ${n === 1 ? "case" : "cases"}`;

/**
 * Everything the card shows, derived from one poll of the run so the parts cannot disagree: no
 * ETA once nothing remains, "Estimating…" only before the first case finished, a pass rate as
 * soon as one case finished ("so far" while the run is active), and no "Running" once every case
 * is done.
 */
export function progressFacts(run: RunDto, now: number | null): ProgressFacts {
  const active = isActiveRun(run.status);
  const finished = run.passed_cases + run.failed_cases + run.error_cases;
  const remaining = Math.max(0, run.total_cases - run.done_cases);
  const elapsed = elapsedMs(run, now);
  const phase: ProgressPhase = !active
    ? (run.status as ProgressPhase)
    : run.cancel_requested_at
      ? "cancelling"
      : remaining === 0
        ? "finishing"
        : run.started_at
          ? "running"
          : "waiting";

  let eta = "—";
  if (phase === "running") {
    const ms = etaMs(run, elapsed);
    eta = ms !== null ? `~${formatDuration(ms)}` : finished === 0 ? "Estimating…" : "—";
  }
  const rateSoFar = finished > 0 ? (run.passed_cases / finished) * 100 : null;
  const passRate = finished === 0 ? "—" : active ? `${formatPercent(rateSoFar)} so far` : formatPercent(run.pass_rate);

  return {
    phase,
    headline: headlineOf(phase, run, { remaining, finished }),
    done: `${run.done_cases} of ${run.total_cases} cases done`,
    elapsed: run.started_at ? formatDuration(elapsed) : phase === "waiting" ? "Waiting for a worker…" : "—",
    eta,
    passRate,
  };
}

function headlineOf(phase: ProgressPhase, run: RunDto, { remaining, finished }: { remaining: number; finished: number }): string {
  switch (phase) {
    case "waiting":
      return "Waiting for a worker to start the run…";
    case "running":
      return `Running: ${cases(remaining)} to go`;
    case "finishing":
      return run.total_cases === 0 ? "No cases to run; finishing the run…" : `All ${cases(run.total_cases)} done; finishing the run…`;
    case "cancelling":
      return "Cancelling: no new cases start; running cases are finishing.";
    case "completed":
      // The duration is the card's Duration figure: said once.
      return "Completed";
    case "failed":
      return "The run failed";
    case "cancelled":
      return `Cancelled after ${cases(finished)} ran`;
  }
}

export function RunProgress({ run }: { run: RunDto }) {
  const active = isActiveRun(run.status);
  const now = useNow(active);
  const facts = progressFacts(run, now);
  const tokens = run.prompt_tokens + run.completion_tokens;
  const segments = [
    { n: run.passed_cases, tone: "bg-green-500" },
    { n: run.failed_cases, tone: "bg-red-500" },
    { n: run.error_cases, tone: "bg-amber-500" },
    { n: run.skipped_cases, tone: "bg-slate-400" },
  ];

  return (
    <Card className="space-y-4 p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <h2 className="text-base font-semibold">Progress</h2>
          <p className={cn("text-sm", facts.phase === "cancelling" ? "text-amber-700" : "text-slate-600")} data-testid="run-phase">
            {facts.headline}
          </p>
        </div>
        <p className="text-sm text-slate-700" data-testid="run-done-count">
          {facts.done}
        </p>
      </div>
      <ProgressBar
        label="Run progress"
        value={run.done_cases}
        max={run.total_cases}
        text={facts.done}
        pulse={facts.phase === "running"}
        fillClassName="flex"
      >
        {segments.map((seg) =>
          seg.n > 0 ? <div key={seg.tone} className={cn("h-full", seg.tone)} style={{ flexGrow: seg.n, flexBasis: 0 }} /> : null,
        )}
      </ProgressBar>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-4 lg:grid-cols-8">
        <RunStat label="Passed" value={formatNumber(run.passed_cases)} tone="text-green-700" />
        <RunStat label="Failed" value={formatNumber(run.failed_cases)} tone="text-red-700" />
        <RunStat label="Errors" value={formatNumber(run.error_cases)} tone="text-amber-700" />
        <RunStat label="Skipped" value={formatNumber(run.skipped_cases)} />
        {active ? (
          <>
            <RunStat label="Elapsed" value={facts.elapsed} />
            <RunStat label="ETA" value={facts.eta} />
          </>
        ) : (
          <RunStat label="Duration" value={facts.elapsed} hint="from the run's start to its end" />
        )}
        <RunStat
          label="Tokens"
          value={formatNumber(tokens)}
          title={`${formatNumber(run.prompt_tokens)} prompt + ${formatNumber(run.completion_tokens)} completion`}
        />
        <RunStat label="Pass rate" value={facts.passRate} tone="font-semibold" />
      </dl>
      {active && (run.rate_limit_waits ?? 0) > 0 && (
        <p
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          role="status"
          data-testid="rate-limit-waits"
        >
          Waiting for the provider&apos;s rate limit: {cases(run.rate_limit_waits!)} held back. They go on as soon as the provider allows; a
          429 answer does not fail a case.
        </p>
      )}
      <ExecutorNotice live={active} />
      <FailureNotice what="run" message={run.error_message} />
    </Card>
  );
}

/** A progress figure, named for e2e checks after its label ("run-stat-elapsed"). */
function RunStat(props: { label: string; value: string; tone?: string; title?: string; hint?: string }) {
  return <Stat {...props} testId={`run-stat-${props.label.toLowerCase().replace(/\s+/g, "-")}`} />;
}
