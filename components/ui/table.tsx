import Link from "next/link";
import { cn } from "./cn";

/**
 * Data table primitives. The look is chosen once on `Table` and reaches the cells through
 * `data-*` attributes: the header keeps a Tailwind group variant, the cells' padding is the
 * `.ui-th`/`.ui-td` rules in app/globals.css (no React context, so server components can render
 * tables too):
 * - `variant="card"` (default): its own bordered card with a tinted header row;
 *   `variant="plain"`: no frame, for a table inside a card or section — the first and last
 *   columns lose their outer padding so the table lines up with the section's text.
 * - `density="normal"` (default) or `"compact"` for long, number-heavy lists.
 */
export type TableProps = React.TableHTMLAttributes<HTMLTableElement> & {
  variant?: "card" | "plain";
  density?: "normal" | "compact";
  /** Read by screen readers only; names the table. */
  caption?: string;
  /** Classes of the scrolling wrapper (margins, max height for a sticky header…). */
  containerClassName?: string;
  /**
   * Wrap in a horizontally scrolling box (default). Turn off for a table that is never seen
   * (a chart's screen-reader table): a scroll box without focusable content fails axe's
   * scrollable-region-focusable rule.
   */
  scroll?: boolean;
};

export function Table({
  variant = "card",
  density = "normal",
  caption,
  containerClassName,
  scroll = true,
  className,
  children,
  ...props
}: TableProps) {
  const table = (
    <table data-variant={variant} data-density={density} className={cn("group/table w-full text-left text-sm", className)} {...props}>
      {caption && <caption className="sr-only">{caption}</caption>}
      {children}
    </table>
  );
  if (!scroll) return table;
  return (
    <div
      className={cn(
        "relative overflow-x-auto",
        variant === "card" && "rounded-lg border border-slate-200 bg-white shadow-sm",
        containerClassName,
      )}
    >
      {table}
    </div>
  );
}

/** A header cell: its label, or `{ label, align: "right" }`, or `{ label, srOnly: true }` for a column without a visible heading. */
export type TableColumn = string | { label: string; align?: "right"; srOnly?: boolean; className?: string };

/** Right-aligned columns, for numbers. */
export const numeric = (labels: string[]): TableColumn[] => labels.map((label) => ({ label, align: "right" }));

/**
 * The header row. Pass `columns` for plain text headings, or `children` (a `TableRow` of
 * `TableHead`s) for anything else. `sticky` keeps it visible while the wrapper (given a max
 * height) scrolls.
 */
export function TableHeader({
  columns,
  sticky = false,
  className,
  children,
  ...props
}: React.HTMLAttributes<HTMLTableSectionElement> & { columns?: TableColumn[]; sticky?: boolean }) {
  return (
    <thead
      className={cn(
        "border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-500 uppercase group-data-[variant=plain]/table:bg-transparent",
        sticky && "sticky top-0 z-10",
        className,
      )}
      {...props}
    >
      {columns ? (
        <TableRow>
          {columns.map((c) => {
            const col = typeof c === "string" ? { label: c } : c;
            return (
              <TableHead
                key={col.label}
                srLabel={col.srOnly ? col.label : undefined}
                className={cn(col.align === "right" && "text-right", col.className)}
              >
                {col.label}
              </TableHead>
            );
          })}
        </TableRow>
      ) : (
        children
      )}
    </thead>
  );
}

export function TableBody({ className, ...props }: React.HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody className={cn("divide-y divide-slate-100", className)} {...props} />;
}

/** Pass `className="hover:bg-slate-50"` (or a selected tint) for interactive rows. */
export function TableRow(props: React.HTMLAttributes<HTMLTableRowElement>) {
  return <tr {...props} />;
}

/** A column header; `srLabel` gives a column without visible heading (actions, order) a screen-reader name. */
export function TableHead({ className, srLabel, children, ...props }: React.ThHTMLAttributes<HTMLTableCellElement> & { srLabel?: string }) {
  return (
    <th scope="col" className={cn("ui-th font-medium", className)} {...props}>
      {srLabel ? <span className="sr-only">{srLabel}</span> : children}
    </th>
  );
}

export function TableCell({ className, ...props }: React.TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn("ui-td", className)} {...props} />;
}

/** The first cell of a row that opens its item: the name as a link, then an optional clamped description. */
export function TableTitleCell({
  href,
  title,
  description,
  className,
}: {
  href: string;
  title: string;
  description?: string | null;
  className?: string;
}) {
  return (
    <TableCell className={className}>
      <Link href={href} className="font-medium text-indigo-700 hover:underline">
        {title}
      </Link>
      {description && <p className="mt-0.5 line-clamp-2 text-xs text-slate-500">{description}</p>}
    </TableCell>
  );
}

/** A single full-width row with a message, for a table that has its header but no rows. */
export function TableEmpty({ colSpan, children }: { colSpan: number; children: React.ReactNode }) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan} className="py-8 text-center text-slate-600">
        {children}
      </TableCell>
    </TableRow>
  );
}
