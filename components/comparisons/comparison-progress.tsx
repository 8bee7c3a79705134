"use client";
import type { ComparisonDto } from "@/lib/comparisons/dto";
import { Card } from "@/components/ui/card";
import { formatDuration } from "@/components/runs/format";
import { useNow } from "@/components/runs/use-now";
import { isActiveComparison } from "./format";
import { ProgressBar } from "@/components/ui/progress-bar";
import { FailureNotice } from "@/components/ui/live-view";

/** Completed pairs of all pairs, elapsed time and an estimate of the rest while live. */
export function ComparisonProgress({ comparison: c }: { comparison: ComparisonDto }) {
  const active = isActiveComparison(c.status);
  const now = useNow(active);
  const start = c.started_at ? Date.parse(c.started_at) : null;
  const end = c.completed_at ? Date.parse(c.completed_at) : now;
  const elapsed = start !== null && end !== null ? Math.max(0, end - start) : null;
  const remaining = c.total_pairs - c.completed_pairs;
  const eta = active && elapsed !== null && c.completed_pairs > 0 && remaining > 0 ? (elapsed / c.completed_pairs) * remaining : null;
  const text = `${c.completed_pairs} of ${c.total_pairs} pairs done`;

  return (
    <Card className="space-y-3 p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-base font-semibold">Progress</h2>
        <p className="text-sm text-slate-700" data-testid="comparison-done-count">
          {text}
        </p>
      </div>
      <ProgressBar label="Comparison progress" value={c.completed_pairs} max={c.total_pairs} text={text} pulse={active} />
      <p className="text-sm text-slate-600">
        {c.status === "pending" && !c.started_at
          ? "Waiting for a worker…"
          : `Elapsed ${formatDuration(elapsed)}${active ? ` · ETA ${eta === null ? "estimating…" : `~${formatDuration(eta)}`}` : ""}`}
      </p>
      {c.cancel_requested && active && (
        <p className="text-sm text-amber-700">Cancelling: no new pairs start; running pairs are finishing.</p>
      )}
      <FailureNotice what="comparison" message={c.error_message} />
    </Card>
  );
}
