import { Badge } from "@/components/ui/card";
import type { ComparisonStatus } from "@/lib/comparisons/schemas";
import type { VerdictChange } from "@/lib/comparisons/diffs";
import { COMPARISON_STATUS_LABELS, COMPARISON_STATUS_TONES, VERDICT_CHANGE_LABELS, VERDICT_CHANGE_TONES } from "./format";

export function ComparisonStatusBadge({ status }: { status: ComparisonStatus }) {
  return <Badge tone={COMPARISON_STATUS_TONES[status] ?? "slate"}>{COMPARISON_STATUS_LABELS[status] ?? status}</Badge>;
}

export function VerdictChangeBadge({ change }: { change: VerdictChange | string | null }) {
  if (!change) return <span className="text-xs text-slate-500">pending</span>;
  const c = change as VerdictChange;
  return <Badge tone={VERDICT_CHANGE_TONES[c] ?? "slate"}>{VERDICT_CHANGE_LABELS[c] ?? change}</Badge>;
}
