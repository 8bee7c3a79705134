import Link from "next/link";
import type { CheckResult, OutcomeResult, TranscriptMessage } from "@/lib/evaluation/types";
import type { Check } from "@/lib/test-cases/schemas";
import type { ComparisonDto, ComparisonPairDto, ExecutionDto } from "@/lib/comparisons/dto";
import type { CaseResultDetail, RunSuiteInfo } from "@/lib/runs/dto";
import { Badge, Card } from "@/components/ui/card";
import { Breadcrumbs } from "@/components/ui/breadcrumbs";
import { buttonClass } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { CaseStatusBadge } from "@/components/runs/status-badges";
import { Transcript, authorshipOf } from "@/components/runs/transcript";
import { CheckResults } from "@/components/runs/check-results";
import { OutcomeResults } from "@/components/runs/outcome-metric-results";
import { formatNumber } from "@/components/runs/format";
import { comparisonHref, pairHref, suiteComparisonsHref } from "./paths";
import { costTone, formatMs, formatRatio, pairLabel, signed } from "./format";
import { VerdictChangeBadge } from "./status-badge";
import { Stat } from "@/components/ui/stat";
import { PairAnswerDiff } from "@/components/runs/answer-diff";

type Snapshot = Record<string, unknown> & { checks?: Check[]; mode?: string; persona?: unknown };

/** One pair: its diffs, then both arms side by side — verdict, reason, final response, transcript, checks and outcomes. */
export function PairView({
  workspaceId,
  comparison: c,
  suite,
  pair: p,
  baseline,
  variant,
}: {
  workspaceId: string;
  comparison: ComparisonDto;
  suite: RunSuiteInfo;
  pair: ComparisonPairDto;
  baseline: CaseResultDetail | null;
  variant: CaseResultDetail | null;
}) {
  const title = c.name || `${c.baseline?.label ?? "Baseline"} vs ${c.variant?.label ?? "Variant"}`;
  const label = pairLabel(p, c.repetitions);
  const base = comparisonHref(workspaceId, c.id);
  return (
    <div className="space-y-4">
      <Breadcrumbs
        items={[
          { label: "Suites", href: `/w/${workspaceId}/suites` },
          { label: suite.name, href: suite.deleted ? null : `/w/${workspaceId}/suites/${suite.id}` },
          { label: "Comparisons", href: suite.deleted ? null : suiteComparisonsHref(workspaceId, suite.id) },
          { label: title, href: base },
          { label },
        ]}
      />
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="flex flex-wrap items-center gap-3 text-xl font-semibold text-slate-900">
            {label}
            <VerdictChangeBadge change={p.verdict_change} />
          </h1>
          <p className="mt-1 text-sm break-words text-slate-600">{p.question}</p>
        </div>
        <nav aria-label="Pairs" className="flex gap-2">
          {p.index > 0 && (
            <Link href={pairHref(workspaceId, c.id, p.index - 1)} className={buttonClass("secondary")}>
              ← Previous pair
            </Link>
          )}
          {p.index + 1 < c.total_pairs && (
            <Link href={pairHref(workspaceId, c.id, p.index + 1)} className={buttonClass("secondary")}>
              Next pair →
            </Link>
          )}
          <Link href={base} className={buttonClass("secondary")}>
            Back to the comparison
          </Link>
        </nav>
      </div>

      <Card className="p-5">
        <h2 className="text-base font-semibold">Differences (variant − baseline)</h2>
        <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3 lg:grid-cols-6">
          <ArmStat label="Latency diff" value={signed(p.latency_diff_ms, " ms")} tone={costTone(p.latency_diff_ms)} />
          <ArmStat label="Latency change %" value={signed(p.latency_improvement_pct, " %")} tone={costTone(p.latency_improvement_pct)} />
          <ArmStat label="Token diff" value={signed(p.token_overhead)} tone={costTone(p.token_overhead)} />
          <ArmStat label="Token overhead %" value={signed(p.token_overhead_pct, " %")} tone={costTone(p.token_overhead_pct)} />
          <ArmStat label="Response length ratio" value={formatRatio(p.response_length_ratio)} />
          <ArmStat label="Order" value={p.order.map((r) => (r === "baseline" ? "A" : r === "variant" ? "B" : r)).join(" → ") || "—"} />
        </dl>
        {p.both_successful === false && (
          <p className="mt-3 text-sm text-amber-800">
            An agent call did not succeed in one arm: this pair is left out of the latency and token statistics.
          </p>
        )}
      </Card>

      <PairAnswerDiff
        a={{
          label: `A (${c.baseline?.label ?? "Baseline"})`,
          answer: armAnswer(p.baseline, baseline),
          error: armError(p.baseline, baseline),
        }}
        b={{ label: `B (${c.variant?.label ?? "Variant"})`, answer: armAnswer(p.variant, variant), error: armError(p.variant, variant) }}
      />

      <div className="grid gap-4 xl:grid-cols-2">
        <ArmColumn workspaceId={workspaceId} letter="A" label={c.baseline?.label ?? "Baseline"} execution={p.baseline} result={baseline} />
        <ArmColumn workspaceId={workspaceId} letter="B" label={c.variant?.label ?? "Variant"} execution={p.variant} result={variant} />
      </div>
    </div>
  );
}

/** An arm's final answer and, when it has none, why: the same fields its column shows. */
const armAnswer = (e: ExecutionDto | null, r: CaseResultDetail | null) => r?.actual_response ?? e?.response ?? null;
const armError = (e: ExecutionDto | null, r: CaseResultDetail | null) => r?.error_message ?? e?.error ?? null;

function ArmColumn({
  workspaceId,
  letter,
  label,
  execution: e,
  result: r,
}: {
  workspaceId: string;
  letter: "A" | "B";
  label: string;
  execution: ExecutionDto | null;
  result: CaseResultDetail | null;
}) {
  const snapshot = (r?.test_case ?? {}) as Snapshot;
  const status = r?.status ?? e?.status ?? null;
  const reason = armError(e, r);
  const response = armAnswer(e, r);
  return (
    <section aria-label={`${letter}: ${label}`} className="min-w-0 space-y-4" data-testid={`pair-arm-${letter}`}>
      <Card className="space-y-3 p-5">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="flex items-center gap-2 text-base font-semibold">
            <Badge tone={letter === "A" ? "slate" : "indigo"}>{letter}</Badge>
            {label}
            {status ? <CaseStatusBadge status={status} /> : <span className="text-xs font-normal text-slate-500">not finished</span>}
          </h2>
          {r && (
            <Link href={`/w/${workspaceId}/runs/${r.run_id}/cases/${r.id}`} className="text-sm text-indigo-600 hover:underline">
              Open the case result<span className="sr-only"> of {label}</span>
            </Link>
          )}
        </div>
        {reason && status !== "passed" && (
          <div
            className={cn(
              "rounded-md border px-3 py-2 text-sm whitespace-pre-wrap",
              status === "failed" ? "border-red-200 bg-red-50 text-red-900" : "border-amber-200 bg-amber-50 text-amber-900",
            )}
          >
            {reason}
          </div>
        )}
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
          <ArmStat label="Agent latency" value={formatMs(e?.latency_ms ?? r?.latency_ms)} />
          <ArmStat label="Tokens" value={formatNumber(e ? e.total_tokens : r ? r.prompt_tokens + r.completion_tokens : null)} />
          <ArmStat label="Retries" value={formatNumber(e?.retry_count ?? r?.retry_count)} />
          <ArmStat label="Model" value={e?.model || "—"} />
        </dl>
      </Card>
      <Card className="space-y-2 p-5">
        <h3 className="text-sm font-semibold">Final response</h3>
        {response ? (
          <p className="max-h-72 overflow-auto rounded-md bg-slate-50 p-3 text-sm break-words whitespace-pre-wrap">{response}</p>
        ) : (
          <p className="text-sm text-slate-500">No final response.</p>
        )}
      </Card>
      {r ? (
        <>
          <Card className="space-y-3 p-5">
            <h3 className="text-sm font-semibold">Transcript</h3>
            <Transcript
              messages={(r.transcript ?? []) as TranscriptMessage[]}
              authorship={authorshipOf(snapshot)}
              files={r.processed_files}
              idPrefix={`${letter.toLowerCase()}-`}
            />
          </Card>
          <Card className="space-y-3 p-5">
            <h3 className="text-sm font-semibold">Checks</h3>
            <CheckResults results={(r.check_results ?? []) as CheckResult[]} checks={snapshot.checks ?? []} mode={snapshot.mode ?? null} />
          </Card>
          <Card className="space-y-3 p-5">
            <h3 className="text-sm font-semibold">Expected outcomes</h3>
            <OutcomeResults
              results={(r.outcome_results ?? []) as OutcomeResult[]}
              transcript={(r.transcript ?? []) as TranscriptMessage[]}
              idPrefix={`${letter.toLowerCase()}-`}
            />
          </Card>
        </>
      ) : (
        <Card className="p-5 text-sm text-slate-600">
          {e?.case_result_id
            ? "The case result is no longer available."
            : "No case result is stored for this execution (imported session)."}
        </Card>
      )}
    </section>
  );
}

/** A figure of one arm; long values (a model name) wrap rather than widen the column. */
function ArmStat({ tone, ...props }: { label: string; value: string; tone?: string }) {
  return <Stat {...props} tone={cn("break-words", tone)} />;
}
