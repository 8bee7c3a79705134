import Link from "next/link";
import { buttonClass } from "./button";
import { cn } from "./cn";
import { Field, Select } from "./field";

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

/** One select of a filter form: labelled, named for the URL, showing the filter's value and its message. */
export function FilterSelect({
  id,
  label,
  error,
  children,
  ...select
}: {
  id: string;
  label: string;
  error?: string;
  name: string;
  defaultValue: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <Field id={id} label={label} error={error}>
      <Select id={id} {...select}>
        {children}
      </Select>
    </Field>
  );
}
