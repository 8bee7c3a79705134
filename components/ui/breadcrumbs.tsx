import { Fragment } from "react";
import Link from "next/link";
import { cn } from "./cn";

/** A crumb without `href` (or the last one, the current page) renders as text. */
export type Crumb = { label: React.ReactNode; href?: string | null };

export function Breadcrumbs({ items, className }: { items: Crumb[]; className?: string }) {
  return (
    <nav aria-label="Breadcrumb" className={cn("text-sm text-slate-500", className)}>
      {items.map((crumb, i) => {
        const current = i === items.length - 1;
        return (
          <Fragment key={i}>
            {i > 0 && " / "}
            {crumb.href && !current ? (
              <Link href={crumb.href} className="hover:underline">
                {crumb.label}
              </Link>
            ) : (
              <span className={current ? "text-slate-700" : undefined} aria-current={current ? "page" : undefined}>
                {crumb.label}
              </span>
            )}
          </Fragment>
        );
      })}
    </nav>
  );
}
