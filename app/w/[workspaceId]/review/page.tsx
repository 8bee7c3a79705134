import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadReviewQueue, loadReviewSuiteOptions } from "@/lib/review/loaders";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/card";
import { Pagination } from "@/components/ui/pagination";
import { buttonClass } from "@/components/ui/button";
import { QueueFilterForm } from "@/components/review/queue-filters";
import { ReviewQueueTable } from "@/components/review/queue-table";
import { queueParams, reviewBase } from "@/components/review/format";
import type { WorkspacePageProps } from "@/lib/pages/props";

export const metadata = { title: "Review" };

/** The labels export of the session's workspace, for the suite filtered on (or every suite). */
function exportHref(workspaceId: string, suite: string | null) {
  const href = `/api/w/${workspaceId}/review-items/export`;
  return suite ? `${href}?suite_id=${suite}` : href;
}

export default async function ReviewQueuePage({ params, searchParams }: WorkspacePageProps) {
  const { workspaceId } = await params;
  const sp = await searchParams;
  const ctx = await pageContext(workspaceId);
  const [{ items, nextCursor, filters }, suites] = await Promise.all([orNotFound(loadReviewQueue(ctx, sp)), loadReviewSuiteOptions(ctx)]);
  const base = reviewBase(workspaceId);
  return (
    <div className="space-y-4">
      <PageHeader
        title="Review"
        description="Case results waiting for human labels: sent by hand, or by a suite's review rules when a run finishes. Open one to label it; the judge's verdict shows once you did."
        actions={
          <a href={exportHref(workspaceId, filters.suite)} download className={buttonClass("secondary", "sm")}>
            Export labels (JSONL)
          </a>
        }
      />
      <QueueFilterForm base={base} suites={suites} filters={filters} />
      {items.length === 0 ? (
        <EmptyState
          title={filters.status === "open" ? "Nothing waiting for review" : "No review items match these filters"}
          description="Send case results to review from a run, or turn on review rules in a suite's settings."
        />
      ) : (
        <ReviewQueueTable workspaceId={workspaceId} items={items} filters={filters} />
      )}
      <Pagination base={base} params={queueParams(filters)} cursor={filters.cursor} nextCursor={nextCursor} />
    </div>
  );
}
