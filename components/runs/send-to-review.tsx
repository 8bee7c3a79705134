"use client";
import { useState, useTransition } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { sendToReviewAction } from "@/lib/review/actions";
import { Button, buttonClass } from "@/components/ui/button";
import { Badge } from "@/components/ui/card";

/**
 * Human review on the run page and the case view: "Send to review" (one result, or the run
 * page's selected rows) and the badges a reviewed row carries — the human verdict beside the
 * judge's, "Overturned" where they differ, and where an item is still in review.
 */

type Verdict = "pass" | "fail";
type ReviewStatus = "open" | "agreed" | "conflict" | "resolved";

/** The judge's verdict a result's status stands for; an error or an unfinished result has none. */
export const judgeVerdictOf = (status: string): Verdict | null => (status === "passed" ? "pass" : status === "failed" ? "fail" : null);

/** The human verdict differs from the judge's (an errored result has no judge verdict to overturn). */
export const isOverturned = (status: string, human: Verdict | null) => {
  const judge = judgeVerdictOf(status);
  return human !== null && judge !== null && human !== judge;
};

/** "Human: pass", and "Overturned" when the judge said otherwise; while undecided, where the review stands. */
export function HumanVerdictBadges({
  status,
  humanVerdict,
  reviewStatus,
}: {
  status: string;
  humanVerdict: Verdict | null;
  reviewStatus: ReviewStatus | null;
}) {
  if (humanVerdict) {
    return (
      <>
        <Badge tone={humanVerdict === "pass" ? "green" : "red"} className="whitespace-nowrap">
          Human: {humanVerdict}
        </Badge>
        {isOverturned(status, humanVerdict) && (
          <Badge tone="amber" title="The human verdict differs from the judge's">
            Overturned
          </Badge>
        )}
      </>
    );
  }
  if (reviewStatus === "open")
    return (
      <Badge tone="blue" className="whitespace-nowrap">
        In review
      </Badge>
    );
  if (reviewStatus === "conflict")
    return (
      <Badge tone="amber" className="whitespace-nowrap">
        Review conflict
      </Badge>
    );
  return null;
}

/** "3 sent to review, 1 already queued": the created items against the results asked for. */
export function sentMessage(created: number, total: number): string {
  const already = total - created;
  return `${created} sent to review${already > 0 ? `, ${already} already queued` : ""}`;
}

/** Sends case results to review and reports how many were queued; refreshes the page's data after. */
export function useSendToReview(workspaceId: string, queryKey: readonly unknown[]) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  const [outcome, setOutcome] = useState<{ ok: true; message: string } | { ok: false; message: string } | null>(null);
  const send = (ids: string[], onSent?: () => void) =>
    startTransition(async () => {
      setOutcome(null);
      const result = await sendToReviewAction(workspaceId, { case_result_ids: ids });
      if (!result.ok) {
        setOutcome({ ok: false, message: result.error });
        return;
      }
      setOutcome({ ok: true, message: sentMessage(result.data.created, result.data.data.length) });
      onSent?.();
      await queryClient.invalidateQueries({ queryKey });
      router.refresh();
    });
  return { send, pending, outcome };
}

/** The run page's bulk bar, shown while rows are selected: how many, "Send to review", other actions (`children`), "Clear". */
export function BulkReviewBar({
  count,
  pending,
  onSend,
  onClear,
  children,
}: {
  count: number;
  pending: boolean;
  onSend: () => void;
  onClear: () => void;
  children?: React.ReactNode;
}) {
  return (
    <div
      role="group"
      aria-label="Selected case results"
      className="mb-3 flex flex-wrap items-center gap-3 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm"
    >
      <span className="font-medium text-indigo-900">{count} selected</span>
      <Button size="sm" onClick={onSend} disabled={pending}>
        {pending ? "Sending…" : "Send to review"}
      </Button>
      {children}
      <Button size="sm" variant="ghost" onClick={onClear} disabled={pending}>
        Clear selection
      </Button>
    </div>
  );
}

/** What "Send to review" answered, with a link to the queue on success. */
export function SentNotice({ outcome, queueHref }: { outcome: { ok: boolean; message: string } | null; queueHref: string }) {
  if (!outcome) return null;
  return (
    <p role="status" className={`mb-3 text-sm ${outcome.ok ? "text-green-800" : "text-red-700"}`}>
      {outcome.message}
      {outcome.ok && (
        <>
          {" · "}
          <Link href={queueHref} className="font-medium text-indigo-700 hover:underline">
            Open the Review queue
          </Link>
        </>
      )}
    </p>
  );
}

/** The case view's control: "Send to review", or, once queued, a link to its review item. */
export function CaseReviewControl({
  workspaceId,
  caseResultId,
  item,
  canSend,
  sendable,
  queryKey,
}: {
  workspaceId: string;
  caseResultId: string;
  item: { id: string; status: ReviewStatus } | null;
  canSend: boolean;
  /** Only finished results (passed, failed, error) can be reviewed. */
  sendable: boolean;
  queryKey: readonly unknown[];
}) {
  const { send, pending, outcome } = useSendToReview(workspaceId, queryKey);
  if (item) {
    return (
      <Link href={`/w/${workspaceId}/review/${item.id}`} className={buttonClass("secondary")}>
        In review: {item.status}
      </Link>
    );
  }
  if (!canSend || !sendable) return null;
  return (
    <div className="flex flex-col items-start gap-1">
      <Button variant="secondary" onClick={() => send([caseResultId])} disabled={pending}>
        {pending ? "Sending…" : "Send to review"}
      </Button>
      {outcome && !outcome.ok && (
        <p role="status" className="max-w-72 text-xs text-red-700">
          {outcome.message}
        </p>
      )}
    </div>
  );
}
