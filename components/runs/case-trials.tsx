import Link from "next/link";
import type { CaseTrial } from "@/lib/runs/case-trials";
import type { CaseHistoryDto } from "@/lib/runs/trial-reads";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { CASE_STATUS_LABELS } from "./status-badges";
import { markLabel, ResultStrip } from "./result-strip";
import { formatDateTime } from "./format";

/**
 * The case view's trial parts: the selector between the trials of this case in its run, and the
 * case's history strip (its latest results across the suite's runs) with its flip rate.
 */

/** Links to every trial of the case in this run, the open one marked current. */
export function TrialSelector({
  workspaceId,
  runId,
  trials,
  currentId,
}: {
  workspaceId: string;
  runId: string;
  trials: CaseTrial[];
  currentId: string;
}) {
  return (
    <nav aria-label="Trials of this case">
      <ul className="flex flex-wrap gap-2">
        {trials.map((t) => {
          const current = t.id === currentId;
          return (
            <li key={t.id}>
              <Link
                href={`/w/${workspaceId}/runs/${runId}/cases/${t.id}`}
                aria-current={current ? "page" : undefined}
                className={cn(
                  "inline-flex items-center gap-1 rounded-md border px-3 py-1.5 text-sm",
                  current
                    ? "border-indigo-600 bg-indigo-50 font-semibold text-indigo-900"
                    : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50",
                )}
              >
                Trial {t.trial + 1}{" "}
                <span className="text-xs font-normal text-slate-600">· {CASE_STATUS_LABELS[t.status].toLowerCase()}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** "Flip rate 0.33 over 12 judged results", or a dash with fewer than two judged results. */
export function flipRateText(history: CaseHistoryDto): string {
  const judged = history.results.filter((r) => r.status !== "error").length;
  if (history.flip_rate === null) return "Flip rate —";
  return `Flip rate ${history.flip_rate.toFixed(2)} over ${judged} judged results`;
}

/** The case's latest results in the suite's history, oldest to newest, each opening its case view. */
export function CaseHistoryCard({ workspaceId, history, currentId }: { workspaceId: string; history: CaseHistoryDto; currentId: string }) {
  const oldestFirst = [...history.results].reverse();
  return (
    <Card className="space-y-2 p-5">
      <h2 className="text-base font-semibold">History</h2>
      <p className="text-xs text-slate-500">
        This case&apos;s latest {oldestFirst.length === 1 ? "result" : `${oldestFirst.length} results`} in the suite&apos;s runs, oldest
        first (every trial its own mark; experiments not included).
      </p>
      {oldestFirst.length === 0 ? (
        <p className="text-sm text-slate-500">No finished result yet.</p>
      ) : (
        <ResultStrip
          label="Latest results of this case"
          marks={oldestFirst.map((h) => ({
            id: h.id,
            href: `/w/${workspaceId}/runs/${h.run_id}/cases/${h.id}`,
            status: h.status,
            label: markLabel(`Run #${h.run_number}, trial ${h.trial + 1}, ${formatDateTime(h.created_at)}`, h.status),
            current: h.id === currentId,
          }))}
        />
      )}
      <p className="text-sm text-slate-700" data-testid="case-flip-rate">
        {flipRateText(history)}
      </p>
    </Card>
  );
}
