import Link from "next/link";
import { buttonClass } from "./button";
import { cn } from "./cn";

/**
 * A list page's filters as a plain GET form: the URL holds them, so a filtered list can be shared
 * as a link and needs no script. The controls come first, then "Filter", then "Reset" (back to
 * `base`) while any filter is set. `className` sets the gaps between the controls.
 */
export function FilterForm({
  base,
  label,
  filtered,
  className = "gap-3",
  children,
}: {
  base: string;
  /** The form's accessible name ("Filter runs"). */
  label: string;
  filtered: boolean;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <form method="get" action={base} role="search" aria-label={label} className={cn("flex flex-wrap items-end", className)}>
      {children}
      <button type="submit" className={buttonClass("secondary")}>
        Filter
      </button>
      {filtered && (
        <Link href={base} className="pb-2 text-sm text-indigo-700 hover:underline">
          Reset
        </Link>
      )}
    </form>
  );
}
