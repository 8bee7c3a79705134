"use client";
import Link from "next/link";
import { countTurns } from "@/lib/evaluation/transcript";
import type { Check } from "@/lib/test-cases/schemas";
import type { CaseResultDetail, RunSuiteInfo } from "@/lib/runs/dto";
import { CostStats } from "./cost-stats";
import { isOpenCase, useCaseResult } from "@/lib/runs/hooks";
import { Badge, Card } from "@/components/ui/card";
import { buttonClass } from "@/components/ui/button";
import { CaseStatusBadge } from "./status-badges";
import { Transcript, authorshipOf, type TranscriptEntry } from "./transcript";
import { MakeCaseButton } from "@/components/traffic/make-case-button";
import { LlmCalls } from "./llm-calls";
import { CaseSnapshot } from "./case-snapshot";
import { formatDateTime, formatDuration, formatNumber } from "./format";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { LiveUpdatesPaused } from "@/components/ui/live-view";
import { suiteCrumbs } from "@/components/suites/suite-crumbs";
import { ResolvedVariablesTable } from "@/components/variables/resolved-variables-table";
import { ProcessedFiles } from "./processed-files";
import { CASE_STAGE_LABELS, CaseStageBadge, isFailureStage, stageWorthShowing } from "./case-stage";
import { Stat } from "@/components/ui/stat";
import type { CaseTrial } from "@/lib/runs/case-trials";
import type { CaseHistoryDto } from "@/lib/runs/trial-reads";
import { CaseHistoryCard, TrialSelector } from "./case-trials";
import { CaseReviewControl, HumanVerdictBadges } from "./send-to-review";
import { runKeys } from "@/lib/runs/hooks";
import type { AnswerComparison } from "@/lib/runs/answer-diff";
import { AnswerDiffCard } from "./answer-diff";
import { CaseNav, type CaseNavData } from "./case-nav";
import { FailureReasons } from "./failure-reasons";
import { CaseVerdicts } from "./case-verdicts";

/** What kind of problem an error_type names: agent failures vs evaluator (judge/simulator) errors. */
const ERROR_KINDS: Record<string, { title: string; note: string }> = {
  agent: { title: "Agent error", note: "The agent under test failed to answer." },
  timeout: { title: "Agent timeout", note: "A call timed out after its retries." },
  simulator: { title: "Simulator error", note: "The simulated user failed — this is not an agent failure." },
  judge: { title: "Judge error", note: "The evaluator could not decide — this is not an agent failure." },
  config: { title: "Configuration error", note: "The run could not prepare the agent or its models." },
  cancelled: { title: "Cancelled", note: "The run was cancelled while this case was running." },
  worker_lost: { title: "Worker lost", note: "The process running this case stopped responding." },
  internal: { title: "Internal error", note: "Something went wrong on our side while running this case." },
};

type Snapshot = Record<string, unknown> & { checks?: Check[]; mode?: string; persona?: unknown; max_turns?: number | null };

/** The case view's human review: the result's review item, who gave its human verdict, whether the member may send it. */
export type CaseReview = {
  item: { id: string; status: "open" | "agreed" | "conflict" | "resolved" } | null;
  verdictBy: string | null;
  canSend: boolean;
};

export function CaseView({
  workspaceId,
  initial,
  suite,
  runNumber,
  trials = [],
  history = null,
  review = null,
  answerComparison = null,
  nav = null,
  canDraft = false,
}: {
  workspaceId: string;
  initial: CaseResultDetail;
  suite: RunSuiteInfo;
  /** The run's number within its suite ("Run #42"). */
  runNumber: number;
  /** The trials of this case in the run, in trial order (empty with one trial per case). */
  trials?: CaseTrial[];
  /** The case's latest results across runs with its flip rate (null without a test case). */
  history?: CaseHistoryDto | null;
  /** The final answer's diff against the same case in another run (null: the case is gone). */
  answerComparison?: AnswerComparison | null;
  review?: CaseReview | null;
  /** The run page's list this case was opened from, and the case's neighbours in it (previous/next failure). */
  nav?: CaseNavData | null;
  /** The member may make a test case from this transcript (editors). */
  canDraft?: boolean;
}) {
  const { data: r = initial, isError, error } = useCaseResult(workspaceId, initial.id, initial);
  const runHref = `/w/${workspaceId}/runs/${r.run_id}`;
  const suiteHref = `/w/${workspaceId}/suites/${suite.id}`;
  const snapshot = (r.test_case ?? {}) as Snapshot;
  const transcript = (r.transcript ?? []) as TranscriptEntry[];
  // A turn the agent never finished (it failed, or the run was cancelled) is shown but not counted.
  const unfinished = Math.max(0, countTurns(transcript) - r.turns);
  const open = isOpenCase(r.status);
  const kind = r.error_type ? (ERROR_KINDS[r.error_type] ?? { title: `${r.error_type} error`, note: "" }) : null;

  return (
    <div className="space-y-4">
      <Breadcrumbs items={suiteCrumbs(workspaceId, suite, null, { label: `Run #${runNumber}`, href: runHref }, { label: r.name })} />
      {nav && <CaseNav workspaceId={workspaceId} runId={r.run_id} nav={nav} failed={r.status === "failed"} />}

      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="flex flex-wrap items-center gap-3 text-xl font-semibold text-slate-900">
            {r.name}
            <CaseStatusBadge status={r.status} />
            {stageWorthShowing(r.status, r.stage) && <CaseStageBadge stage={r.stage} />}
            {r.variant === "variant" && <Badge tone="indigo">variant</Badge>}
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            {trials.length > 1 ? `Trial ${r.trial + 1} of ${trials.length}` : `Case ${r.position + 1} of the run`}
            {r.completed_at ? ` · finished ${formatDateTime(r.completed_at)}` : ""}
          </p>
          {r.human_verdict && (
            <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-700" data-testid="case-human-verdict">
              <HumanVerdictBadges status={r.status} humanVerdict={r.human_verdict} reviewStatus={null} />
              <span>
                {review?.verdictBy ? `by ${review.verdictBy} · ` : ""}
                {formatDateTime(r.human_verdict_at)}
                {r.overturned ? ` · the judge said ${r.status === "passed" ? "pass" : "fail"}` : " · agrees with the judge"}
              </span>
            </p>
          )}
        </div>
        <div className="flex flex-wrap items-start gap-2">
          {review && (
            <CaseReviewControl
              workspaceId={workspaceId}
              caseResultId={r.id}
              item={review.item}
              canSend={review.canSend}
              sendable={r.status === "passed" || r.status === "failed" || r.status === "error"}
              queryKey={runKeys.caseResult(workspaceId, r.id)}
            />
          )}
          {!nav && (
            <Link href={runHref} className={buttonClass("secondary")}>
              ← Back to the run
            </Link>
          )}
          {r.test_case_id && !suite.deleted && (
            <Link href={`${suiteHref}/cases/${r.test_case_id}`} className={buttonClass("secondary")}>
              Open the current test case
            </Link>
          )}
          {canDraft && !open && transcript.some((m) => m.role === "user") && (
            <MakeCaseButton
              workspaceId={workspaceId}
              from={{ type: "case_result", id: r.id }}
              userTurns={transcript.filter((m) => m.role === "user").length}
              defaultSuiteId={suite.deleted ? undefined : suite.id}
            />
          )}
        </div>
      </div>

      <LiveUpdatesPaused error={isError ? error : null} retrying={false} />

      {trials.length > 1 && <TrialSelector workspaceId={workspaceId} runId={r.run_id} trials={trials} currentId={r.id} />}

      <Card className="space-y-3 p-5">
        <h2 className="text-base font-semibold">Result</h2>
        {open ? (
          <p className="text-sm text-slate-600">
            This case is {r.status === "running" ? "running" : "waiting to run"}
            {r.status === "running" && r.stage !== "pending" ? ` (${CASE_STAGE_LABELS[r.stage].toLowerCase()})` : ""}; this page updates
            when it finishes.
          </p>
        ) : r.status === "passed" ? (
          <p className="text-sm text-green-800">Every check, tool call expectation, outcome and metric passed.</p>
        ) : (
          <div
            className={`rounded-md border px-3 py-2 text-sm ${r.status === "error" ? "border-amber-200 bg-amber-50 text-amber-900" : r.status === "skipped" ? "border-slate-200 bg-slate-50 text-slate-800" : "border-red-200 bg-red-50 text-red-900"}`}
            data-testid="case-reason"
          >
            <p className="font-medium">
              {kind ? kind.title : r.status === "skipped" ? "Skipped" : "Why it failed"}
              {isFailureStage(r.stage) && <span className="font-normal"> · stage: {CASE_STAGE_LABELS[r.stage]}</span>}
            </p>
            {kind?.note && <p className="text-xs opacity-80">{kind.note}</p>}
            <FailureReasons status={r.status} reasons={r.failure_reasons} errorMessage={r.error_message} />
          </div>
        )}
        {r.stopped_by_safety_cap && (
          <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700" data-testid="case-safety-cap">
            Stopped by safety cap after {formatNumber(r.turns)} turns: the workspace limit ended the conversation, not this case&apos;s own
            max_turns{snapshot.max_turns == null ? " (none: the conversation had no cap of its own)" : ` (${snapshot.max_turns})`}.
          </p>
        )}
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-4 lg:grid-cols-9">
          <Stat label="Prompt tokens" value={formatNumber(r.prompt_tokens)} />
          <Stat label="Completion tokens" value={formatNumber(r.completion_tokens)} />
          <CostStats cost={r.cost} testId="case-stat-cost" />
          <Stat label="Agent latency" value={formatDuration(r.latency_ms)} />
          <Stat label="Duration" value={formatDuration(r.duration_ms)} />
          <Stat label="Agent retries" value={formatNumber(r.retry_count)} />
          <Stat label="Evaluator retries" value={formatNumber(r.evaluator_retry_count)} />
          <Stat label="Metrics passed" value={r.metrics_total ? `${r.metrics_passed} of ${r.metrics_total}` : "—"} />
          <Stat
            label="Turns"
            testId="case-stat-turns"
            value={`${formatNumber(r.turns)}${unfinished > 0 ? ` + ${unfinished} unfinished` : ""}`}
          />
          <Stat label="Started" value={formatDateTime(r.started_at)} />
        </dl>
      </Card>

      {history && <CaseHistoryCard workspaceId={workspaceId} history={history} currentId={r.id} />}
      {answerComparison && !isOpenCase(r.status) && (
        <AnswerDiffCard workspaceId={workspaceId} answer={r.actual_response} comparison={answerComparison} />
      )}

      {/* min-w-0: a wide attachment table scrolls inside its bubble instead of widening the column. */}
      <div className="grid gap-4 xl:grid-cols-2">
        <Card className="min-w-0 space-y-3 p-5">
          <h2 className="text-base font-semibold">Transcript</h2>
          <Transcript messages={transcript} authorship={authorshipOf(snapshot)} files={r.processed_files} />
        </Card>
        <CaseVerdicts result={r} checks={snapshot.checks ?? []} mode={snapshot.mode ?? null} transcript={transcript} />
      </div>

      {(r.processed_files.length > 0 || (snapshot.files as unknown[] | null | undefined)?.length) && (
        <Section
          title="Processed files"
          description="Each file of the case as the agent received it: the extracted markdown, its metadata and processing time."
        >
          <ProcessedFiles files={r.processed_files} />
        </Section>
      )}
      {r.resolved_variables && Object.keys(r.resolved_variables.values ?? {}).length > 0 && (
        <Section
          title="Variables"
          description="The values this case ran with (the variables model) and where each came from: run, suite, test or type."
        >
          <ResolvedVariablesTable resolved={r.resolved_variables} label="Resolved variables" />
        </Section>
      )}
      <Section
        title="LLM calls"
        description="Every model call of this case with its exact request and raw response — why did the judge say that?"
      >
        <LlmCalls calls={r.llm_calls} />
      </Section>
      <Section
        title="Test case as it ran"
        description="A snapshot taken when the run started; later edits to the test case do not change it."
      >
        <CaseSnapshot snapshot={snapshot} />
      </Section>
    </div>
  );
}

function Section({ title, description, children }: { title: string; description?: string; children: React.ReactNode }) {
  return (
    <Card className="space-y-3 p-5">
      <div>
        <h2 className="text-base font-semibold">{title}</h2>
        {description && <p className="text-xs text-slate-500">{description}</p>}
      </div>
      {children}
    </Card>
  );
}
