"use client";
import { useEffect, useId, useState } from "react";
import type { CaseStatusCounts } from "@/lib/runs/dto";
import type { CaseResultStatus } from "@/lib/runs/schemas";
import { CASE_SORTS, type CaseSortKey, type SortDir } from "@/lib/runs/case-sort";
import { Input } from "@/components/ui/field";
import { PrevNextPagination } from "@/components/ui/pagination";
import { TableHead } from "@/components/ui/table";
import { cn } from "@/components/ui/cn";
import { formatNumber } from "./format";

/**
 * The run page's case table controls: status chips with their counts, the search box, sortable
 * column headers and the "1–50 of 300" pager. Each reports a change; the table keeps the state
 * (and the URL).
 */

/** The chips in triage order: what failed first. Statuses with no result are left out (except failed, errors, passed). */
const CHIPS: { status: CaseResultStatus; label: string; always?: boolean }[] = [
  { status: "failed", label: "Failed", always: true },
  { status: "error", label: "Errors", always: true },
  { status: "passed", label: "Passed", always: true },
  { status: "skipped", label: "Skipped" },
  { status: "running", label: "Running" },
  { status: "pending", label: "Pending" },
];

/** "All 300 · Failed 40 · Errors 3 · Passed 257": toggle buttons; the pressed one filters. */
export function StatusChips({
  counts,
  status,
  onChange,
}: {
  counts: CaseStatusCounts;
  status: CaseResultStatus | undefined;
  onChange: (status: CaseResultStatus | undefined) => void;
}) {
  const all = Object.values(counts).reduce((a, b) => a + b, 0);
  const chips = CHIPS.filter((c) => c.always || counts[c.status] > 0 || status === c.status);
  const chip = (pressed: boolean, label: string, n: number, onClick: () => void) => (
    <button
      key={label}
      type="button"
      aria-pressed={pressed}
      onClick={onClick}
      className={cn(
        "rounded-full border px-3 py-1 text-sm whitespace-nowrap",
        pressed ? "border-indigo-600 bg-indigo-600 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50",
      )}
    >
      {label} <span className="font-semibold tabular-nums">{formatNumber(n)}</span>
    </button>
  );
  return (
    <div role="group" aria-label="Filter by status" className="flex flex-wrap gap-2">
      {chip(!status, "All", all, () => onChange(undefined))}
      {chips.map((c) => chip(status === c.status, c.label, counts[c.status], () => onChange(status === c.status ? undefined : c.status)))}
    </div>
  );
}

/** How long the search waits after the last key before it asks (a search per key would flood a live page). */
const SEARCH_DELAY_MS = 300;

/** The search box: case name, tags or response text; reports the trimmed text once typing pauses. */
export function CaseSearch({ value, onChange, maxLength }: { value: string; onChange: (q: string) => void; maxLength: number }) {
  const id = useId();
  const [text, setText] = useState(value);
  // A location change from elsewhere (a chip's "Clear", the back button) shows in the box.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setText(value);
  }
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => onChange(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);
  return (
    <div className="w-full text-xs text-slate-600 sm:w-72">
      <label htmlFor={id}>Search cases</label>
      <Input
        id={id}
        type="search"
        className="mt-1 w-full"
        placeholder="Name, tag or response text"
        value={text}
        maxLength={maxLength}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") onChange(text.trim());
        }}
      />
    </div>
  );
}

/** A column header that sorts: a button, with aria-sort on the header cell. */
export function SortHeader({
  label,
  sortKey,
  sort,
  dir,
  onSort,
  align,
}: {
  label: string;
  sortKey: CaseSortKey;
  sort: CaseSortKey;
  dir: SortDir;
  onSort: (sort: CaseSortKey, dir: SortDir) => void;
  align?: "right";
}) {
  const active = sort === sortKey;
  const next: SortDir = active ? (dir === "asc" ? "desc" : "asc") : CASE_SORTS[sortKey].firstDir;
  return (
    <TableHead aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : "none"} className={cn(align === "right" && "text-right")}>
      <button
        type="button"
        onClick={() => onSort(sortKey, next)}
        className={cn("inline-flex items-center gap-1 uppercase hover:text-slate-800", align === "right" && "flex-row-reverse")}
      >
        {label}
        <span aria-hidden="true">{active ? (dir === "asc" ? "▲" : "▼") : "↕"}</span>
      </button>
    </TableHead>
  );
}

/** "1–50 of 300", with the first and last row shown (0 rows: "0 of 0"). */
export function rangeText(page: number, limit: number, shown: number, total: number): string {
  if (shown === 0) return `0 of ${formatNumber(total)}`;
  const from = (page - 1) * limit + 1;
  return `${formatNumber(from)}–${formatNumber(from + shown - 1)} of ${formatNumber(total)}`;
}

/** The pager: previous/next page around "1–50 of 300 · page 1 of 6". */
export function RangePager({
  page,
  limit,
  shown,
  total,
  waiting,
  onPage,
}: {
  page: number;
  limit: number;
  shown: number;
  total: number;
  /** The next page's rows are still the previous page's (placeholder data). */
  waiting: boolean;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
      <p className="text-sm text-slate-700 tabular-nums" data-testid="case-range">
        {rangeText(page, limit, shown, total)}
      </p>
      {pages > 1 && (
        <PrevNextPagination
          label="Case result pages"
          className="gap-2"
          prev={{ onClick: () => onPage(page - 1), disabled: page <= 1 || waiting }}
          status={`Page ${page} of ${pages}`}
          next={{ onClick: () => onPage(page + 1), disabled: page >= pages || waiting }}
        />
      )}
    </div>
  );
}
