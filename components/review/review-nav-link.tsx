import { Suspense } from "react";
import { pageContext } from "@/lib/auth/context";
import { loadReviewCount } from "@/lib/review/loaders";
import { NavLink } from "@/components/shell/nav-link";

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
            {open > 99 ? "99+" : open}
          </span>
        ) : null}
      </span>
    </NavLink>
  );
}

/** The member's count of open items waiting for their label; the request's member context is cached (pageContext). */
async function ReviewLinkWithCount({ workspaceId, href }: { workspaceId: string; href: string }) {
  const ctx = await pageContext(workspaceId);
  const { open } = await loadReviewCount(ctx);
  return <ReviewLink href={href} open={open} />;
}

/**
 * The shell's "Review" item with a badge of the items waiting for the member. The count streams
 * in (Suspense) like the alert bell's; labelling revalidates the layout, so it follows at once.
 */
export function ReviewNavLink({ workspaceId }: { workspaceId: string }) {
  const href = `/w/${workspaceId}/review`;
  return (
    <Suspense fallback={<ReviewLink href={href} open={null} />}>
      <ReviewLinkWithCount workspaceId={workspaceId} href={href} />
    </Suspense>
  );
}
