import Link from "next/link";
import type { Check } from "@/lib/test-cases/schemas";
import type { SharedCase } from "@/lib/share-links/loaders";
import { Card } from "@/components/ui/card";
import { Stat } from "@/components/ui/stat";
import { CaseStatusBadge } from "@/components/runs/status-badges";
import { Transcript, authorshipOf, type TranscriptEntry } from "@/components/runs/transcript";
import { formatDuration, formatNumber } from "@/components/runs/format";
import { FailureReasons } from "@/components/runs/failure-reasons";
import { CaseVerdicts } from "@/components/runs/case-verdicts";

/**
 * One case of a shared run: why it failed, the final response, the checks, outcomes and metrics,
 * and the conversation (without the agent's system prompt, which is configuration, not result).
 * The same verdict views as the app's case page, without its live updates, history or actions.
 */
export function SharedCaseView({ token, page }: { token: string; page: SharedCase }) {
  const r = page.result;
  const transcript = r.transcript as TranscriptEntry[];
  const snapshot = page.snapshot;
  return (
    <>
      <p className="text-sm">
        <Link href={`/share/${token}`} className="text-indigo-700 hover:underline">
          ← Back to run #{page.runNumber}
        </Link>
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-xl font-semibold break-words text-slate-900">{r.name}</h1>
        <CaseStatusBadge status={r.status} />
      </div>
      {(r.status === "failed" || r.status === "error") && (
        <div className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          <p className="font-medium">{r.status === "error" ? "Error" : "Why it failed"}</p>
          <FailureReasons status={r.status} reasons={r.failure_reasons} errorMessage={r.error_message} />
        </div>
      )}
      <Card className="p-5">
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-5">
          <Stat label="Prompt tokens" value={formatNumber(r.prompt_tokens)} />
          <Stat label="Completion tokens" value={formatNumber(r.completion_tokens)} />
          <Stat label="Agent latency" value={formatDuration(r.latency_ms)} />
          <Stat label="Turns" value={formatNumber(r.turns)} />
          <Stat label="Trial" value={formatNumber(r.trial + 1)} />
        </dl>
      </Card>
      <div className="grid gap-4 xl:grid-cols-2">
        <Card className="min-w-0 space-y-3 p-5">
          <h2 className="text-base font-semibold">Transcript</h2>
          <Transcript messages={transcript} authorship={authorshipOf(snapshot)} />
        </Card>
        <CaseVerdicts result={r} checks={snapshot.checks as Check[]} mode={snapshot.mode} transcript={transcript} />
      </div>
    </>
  );
}
