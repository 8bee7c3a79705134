import { Badge } from "@/components/ui/card";
import { LineDiffView, diffCounts, lineDiff } from "@/components/ui/line-diff";

// The diff itself lives with the UI primitives (the run's changes card shows prompt diffs too).
export { lineDiff, type DiffLine } from "@/components/ui/line-diff";

/**
 * "Changed" marker under a prompt that differs from its agent's: the added/removed line counts
 * and the diff itself behind a disclosure. Renders nothing while the prompt is the agent's own.
 */
export function PromptDiff({ original, current }: { original: string; current: string }) {
  if (original === current) return null;
  const diff = lineDiff(original, current);
  const { added, removed } = diff ? diffCounts(diff) : { added: 0, removed: 0 };
  return (
    <div className="space-y-1" data-testid="prompt-diff">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <Badge tone="amber">Changed from the agent&apos;s prompt</Badge>
        {diff && (
          <span className="text-slate-600">
            <span className="text-green-700">+{added}</span> / <span className="text-red-700">−{removed}</span> lines
          </span>
        )}
      </div>
      {diff && (
        <details className="text-xs">
          <summary className="cursor-pointer text-indigo-700">Show the diff</summary>
          <LineDiffView diff={diff} className="mt-1" />
        </details>
      )}
    </div>
  );
}
