import Link from "next/link";
import type { CaseResultStatus } from "@/lib/runs/schemas";
import { cn } from "@/components/ui/cn";
import { CASE_STATUS_LABELS } from "./status-badges";

/**
 * A strip of case results, one small mark each, linking to that result's case view: the trials of
 * a case in one run (the run page) or a case's latest results across runs (the case view). Colour
 * and a glyph tell the status at a glance; each mark's name says it in words ("Trial 2: failed").
 */

export type StripMark = { id: string; href: string; label: string; status: CaseResultStatus; current?: boolean };

const MARKS: Record<CaseResultStatus, { glyph: string; className: string }> = {
  passed: { glyph: "✓", className: "bg-green-700 text-white" },
  failed: { glyph: "✗", className: "bg-red-700 text-white" },
  error: { glyph: "!", className: "bg-amber-300 text-amber-950" },
  skipped: { glyph: "–", className: "bg-slate-200 text-slate-700" },
  running: { glyph: "…", className: "bg-blue-100 text-blue-800" },
  pending: { glyph: "·", className: "bg-slate-100 text-slate-600" },
};

/** "Trial 2: failed": how a mark names its result. */
export function markLabel(prefix: string, status: CaseResultStatus): string {
  return `${prefix}: ${CASE_STATUS_LABELS[status].toLowerCase()}`;
}

export function ResultStrip({ label, marks, className }: { label: string; marks: StripMark[]; className?: string }) {
  return (
    <ol aria-label={label} className={cn("flex flex-wrap gap-1", className)}>
      {marks.map((m) => (
        <li key={m.id}>
          <Link
            href={m.href}
            aria-label={m.label}
            title={m.label}
            aria-current={m.current ? "page" : undefined}
            className={cn(
              "flex h-6 w-6 items-center justify-center rounded text-xs font-bold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
              MARKS[m.status].className,
              m.current && "ring-2 ring-indigo-600 ring-offset-1",
            )}
          >
            <span aria-hidden="true">{MARKS[m.status].glyph}</span>
          </Link>
        </li>
      ))}
    </ol>
  );
}
