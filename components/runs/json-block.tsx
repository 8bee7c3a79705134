import { cn } from "@/components/ui/cn";
import { prettyJson } from "./format";

/** Preformatted JSON (or text) in a scrollable block, focusable so a long one scrolls by keyboard too. */
export function JsonBlock({ value, className, label }: { value: unknown; className?: string; label?: string }) {
  return (
    <pre
      tabIndex={0}
      aria-label={label}
      className={cn(
        "max-h-96 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-slate-100",
        className,
      )}
    >
      {prettyJson(value)}
    </pre>
  );
}

/** A collapsible section: a <details> with a summary line. */
export function Disclosure({
  summary,
  children,
  className,
  open,
}: {
  summary: React.ReactNode;
  children: React.ReactNode;
  className?: string;
  open?: boolean;
}) {
  return (
    <details className={cn("group rounded-md border border-slate-200 bg-white", className)} open={open}>
      <summary className="cursor-pointer list-none px-3 py-2 text-sm marker:hidden hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
        <span className="mr-1.5 inline-block text-slate-400 transition-transform group-open:rotate-90" aria-hidden>
          ▸
        </span>
        {summary}
      </summary>
      <div className="space-y-2 border-t border-slate-100 px-3 py-2">{children}</div>
    </details>
  );
}
