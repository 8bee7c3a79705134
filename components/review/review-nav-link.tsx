import { loadReviewCount } from "@/lib/review/loaders";
import { NavLink } from "@/components/shell/nav-link";
import { countText, StreamedCount } from "@/components/shell/streamed-count";

function ReviewLink({ href, open }: { href: string; open: number | null }) {
  return (
    <NavLink href={href} label={open ? `Review, ${open} waiting` : "Review"}>
      <span className="flex items-center justify-between gap-2">
        <span>Review</span>
        {open ? (
          <span
            aria-hidden="true"
            data-testid="review-count"
            className="min-w-5 rounded-full bg-indigo-600 px-1.5 text-center text-xs leading-5 font-semibold text-white"
          >
            {countText(open)}
          </span>
        ) : null}
      </span>
    </NavLink>
  );
}

/**
 * The shell's "Review" item with a badge of the open items waiting for the member's label. The
 * count streams in like the alert bell's; labelling revalidates the layout, so it follows at once.
 */
export function ReviewNavLink({ workspaceId }: { workspaceId: string }) {
  const href = `/w/${workspaceId}/review`;
  return <StreamedCount workspaceId={workspaceId} load={loadReviewCount} render={(open) => <ReviewLink href={href} open={open} />} />;
}
