import Link from "next/link";
import { Button, buttonClass } from "./button";
import { cn } from "./cn";

/** The `<nav>` landmark around every pager; `label` names it for screen readers. */
function PaginationNav({ label = "Pagination", className, children }: { label?: string; className?: string; children: React.ReactNode }) {
  return (
    <nav aria-label={label} className={cn("flex items-center text-sm", className)}>
      {children}
    </nav>
  );
}

/** Query parameters to keep on every page link (filters); empty values are dropped. */
export type PageParams = Record<string, string | null | undefined>;

export function pageHref(base: string, params: PageParams = {}, cursor?: string | null): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  if (cursor) q.set("cursor", cursor);
  const s = q.toString();
  return s ? `${base}?${s}` : base;
}

export type PaginationProps = {
  /** The list's path without query, e.g. `/w/1/agents`. */
  base: string;
  params?: PageParams;
  /** The current page's cursor; absent on the first page. */
  cursor?: string | null;
  nextCursor?: string | null;
  className?: string;
};

/**
 * Forward-only cursor paging of a server-rendered list: "First page" once past the first page,
 * "Next page" while there is more. Renders nothing on a single page.
 */
export function Pagination({ base, params, cursor, nextCursor, className }: PaginationProps) {
  if (!cursor && !nextCursor) return null;
  return (
    <PaginationNav className={cn("justify-end gap-2", className)}>
      {cursor && (
        <Link href={pageHref(base, params)} className={buttonClass("secondary", "sm")}>
          First page
        </Link>
      )}
      {nextCursor && (
        <Link href={pageHref(base, params, nextCursor)} className={buttonClass("secondary", "sm")}>
          Next page
        </Link>
      )}
    </PaginationNav>
  );
}

/** Where a pager step goes: a link (server state in the URL) or a button (client state). */
export type PagerTarget = { href: string } | { onClick: () => void; disabled?: boolean };

function PagerStep({ target, children }: { target: PagerTarget | null | undefined; children: React.ReactNode }) {
  if (!target) return <span />;
  if ("href" in target) {
    return (
      <Link href={target.href} className={buttonClass("secondary", "sm")}>
        {children}
      </Link>
    );
  }
  return (
    <Button size="sm" variant="secondary" disabled={target.disabled} onClick={target.onClick}>
      {children}
    </Button>
  );
}

/**
 * Back/forward paging over a cursor stack ("← Previous page" / "Next page →", or other labels
 * such as "← Newer runs" / "Older runs →"). A missing step leaves its side empty, and with
 * neither step nothing renders; `status` (e.g. "Page 2") sits in the middle.
 */
export function PrevNextPagination({
  prev,
  next,
  prevLabel = "← Previous page",
  nextLabel = "Next page →",
  status,
  label,
  className,
}: {
  prev?: PagerTarget | null;
  next?: PagerTarget | null;
  prevLabel?: React.ReactNode;
  nextLabel?: React.ReactNode;
  status?: React.ReactNode;
  label?: string;
  className?: string;
}) {
  if (!prev && !next) return null;
  return (
    <PaginationNav label={label} className={cn("justify-between", className)}>
      <PagerStep target={prev}>{prevLabel}</PagerStep>
      {status && <span className="text-xs text-slate-600">{status}</span>}
      {next ? <PagerStep target={next}>{nextLabel}</PagerStep> : null}
    </PaginationNav>
  );
}

/**
 * The pager of a client-side keyset list (the run page's live tables): the cursors of the pages
 * already passed are a stack, so "Previous" pops one and "Next" pushes the page's next cursor.
 * Hidden on a list that fits one page.
 */
export function CursorStackPagination({
  cursors,
  setCursors,
  nextCursor,
  waiting,
}: {
  cursors: string[];
  setCursors: (update: (cursors: string[]) => string[]) => void;
  nextCursor: string | null | undefined;
  /** The next page's rows are still the previous page's (placeholder data): stepping on would skip a page. */
  waiting: boolean;
}) {
  if (cursors.length === 0 && !nextCursor) return null;
  return (
    <PrevNextPagination
      className="mt-3"
      prev={{ onClick: () => setCursors((c) => c.slice(0, -1)), disabled: cursors.length === 0 }}
      status={`Page ${cursors.length + 1}`}
      next={{ onClick: () => nextCursor && setCursors((c) => [...c, nextCursor]), disabled: !nextCursor || waiting }}
    />
  );
}
