/**
 * The Review pages' shared wording: status, source and verdict badges, and the queue's URL
 * parameters (the filters a reviewer keeps from the queue into the labelling view and back).
 * No server-only code: the labelling panel is a client component.
 */
import { Badge } from "@/components/ui/card";
import { pageHref, type PageParams } from "@/components/ui/pagination";
import type { ReviewItemStatus } from "@/lib/review/schemas";

export type QueueFilters = {
  status: ReviewItemStatus | "all";
  suite: string | null;
  run: string | null;
  mine: boolean;
  todo: boolean;
  overturned: boolean;
};

/** The filters as query parameters (open, the default status, is left out). */
export function queueParams(f: QueueFilters): PageParams {
  return {
    status: f.status === "open" ? null : f.status,
    suite: f.suite,
    run: f.run,
    mine: f.mine ? "1" : null,
    todo: f.todo ? "1" : null,
    overturned: f.overturned ? "1" : null,
  };
}

export const reviewBase = (workspaceId: string) => `/w/${workspaceId}/review`;

/** The labelling view of an item, keeping the queue's filters for its next/previous. */
export const itemHref = (workspaceId: string, itemId: string, f: QueueFilters) =>
  pageHref(`${reviewBase(workspaceId)}/${itemId}`, queueParams(f));

export const STATUS_LABELS: Record<ReviewItemStatus, string> = {
  open: "Open",
  agreed: "Agreed",
  conflict: "Conflict",
  resolved: "Resolved",
};
const STATUS_TONES = { open: "blue", agreed: "green", conflict: "amber", resolved: "indigo" } as const;

export function ReviewStatusBadge({ status }: { status: ReviewItemStatus }) {
  return <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}

export const SOURCE_LABELS: Record<string, string> = {
  manual: "Sent by hand",
  failed: "Failed (rule)",
  sampled: "Sampled (rule)",
  flaky: "Flaky (rule)",
};

export const verdictLabel = (v: string | null | undefined) =>
  v === "pass" ? "Pass" : v === "fail" ? "Fail" : v === "error" ? "Error" : "—";

/** A pass/fail verdict as a coloured badge ("—" when there is none). */
export function VerdictBadge({ verdict }: { verdict: string | null | undefined }) {
  if (!verdict) return <span className="text-slate-500">—</span>;
  return <Badge tone={verdict === "pass" ? "green" : verdict === "fail" ? "red" : "slate"}>{verdictLabel(verdict)}</Badge>;
}
