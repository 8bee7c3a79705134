"use client";
import { useState } from "react";
import Link from "next/link";
import type { ComparisonPairDto, ExecutionDto } from "@/lib/comparisons/dto";
import { VERDICT_CHANGES, type PairSort } from "@/lib/comparisons/schemas";
import type { VerdictChange } from "@/lib/comparisons/diffs";
import { Section } from "@/components/ui/card";
import { Options, Select } from "@/components/ui/field";
import { PrevNextPagination } from "@/components/ui/pagination";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { CaseStatusBadge } from "@/components/runs/status-badges";
import { cn } from "@/components/ui/cn";
import { usePairs, type PairPage } from "./hooks";
import { pairHref, type PairFilters } from "./paths";
import { costTone, formatMs, formatRatio, pairLabel, signed, VERDICT_CHANGE_LABELS } from "./format";
import { VerdictChangeBadge } from "./status-badge";

type SortKey = Exclude<PairSort, `-${string}`>;

const COLUMNS: { label: string; sort?: SortKey; className?: string }[] = [
  { label: "#", sort: "index" },
  { label: "Case" },
  { label: "Verdict change" },
  { label: "Order" },
  { label: "A verdict" },
  { label: "B verdict" },
  { label: "Latency A", className: "text-right" },
  { label: "Latency B", className: "text-right" },
  { label: "Latency diff", sort: "latency_diff_ms", className: "text-right" },
  { label: "Latency change %", sort: "latency_improvement_pct", className: "text-right" },
  { label: "Token diff", sort: "token_overhead", className: "text-right" },
  { label: "Token overhead %", sort: "token_overhead_pct", className: "text-right" },
  { label: "Length ratio", sort: "response_length_ratio", className: "text-right" },
];

/** A flipped pair's row tint; its Verdict change badge says the same in words. */
const FLIPPED_ROW: Partial<Record<VerdictChange, string>> = { pass_to_fail: "bg-red-50", fail_to_pass: "bg-green-50" };

const num = "text-right tabular-nums whitespace-nowrap";

/**
 * The comparison's pairs, sortable by the API's sorts (click a heading: ascending, again:
 * descending), filterable by verdict change and paged with the API's cursor; each case opens the
 * pair view. Polls while the comparison is live.
 */
export function PairsTable({
  workspaceId,
  comparisonId,
  repetitions,
  live,
  initial,
  pageSize,
}: {
  workspaceId: string;
  comparisonId: string;
  repetitions: number;
  live: boolean;
  initial: PairPage;
  pageSize: number;
}) {
  // Flipped verdicts first: they are what a comparison is read for.
  const [sort, setSort] = useState<PairSort>("flipped");
  const [verdictChange, setVerdictChange] = useState<VerdictChange | "">("");
  const [stack, setStack] = useState<string[]>([]);
  const cursor = stack[stack.length - 1];
  const filters: PairFilters = { sort, verdict_change: verdictChange || undefined, cursor, limit: pageSize };
  const isInitial = sort === "flipped" && !verdictChange && !cursor;
  const { data, isError, error, isFetching } = usePairs(workspaceId, comparisonId, filters, {
    live,
    initial: isInitial ? initial : undefined,
  });
  const rows = data?.data ?? [];

  const sortBy = (key: SortKey) => {
    setStack([]);
    setSort((s) => (s === key && key !== "index" ? (`-${key}` as PairSort) : key));
  };

  return (
    <Section
      title="Pairs"
      description={
        sort === "flipped"
          ? "Flipped verdicts first, then errors, then the rest; diffs are variant − baseline. Open a case to read both transcripts."
          : "One row per case and repetition; diffs are variant − baseline. Open a case to read both transcripts."
      }
      actions={
        <div className="flex items-center gap-2">
          <label htmlFor="pairs-verdict-change" className="text-sm text-slate-600">
            Verdict change
          </label>
          <Select
            id="pairs-verdict-change"
            className="w-44"
            value={verdictChange}
            onChange={(e) => {
              setStack([]);
              setVerdictChange(e.target.value as VerdictChange | "");
            }}
          >
            <Options values={VERDICT_CHANGES} labels={VERDICT_CHANGE_LABELS} none="All pairs" />
          </Select>
        </div>
      }
    >
      {isError && (
        <p role="status" className="mb-3 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800">
          The pairs could not be loaded: {error.message}
        </p>
      )}
      <Table variant="plain" density="compact" caption="Pairs of the comparison" aria-busy={isFetching}>
        <TableHeader>
          <TableRow>
            {COLUMNS.map((c) => {
              const active = c.sort && (sort === c.sort || sort === `-${c.sort}`);
              const desc = active && sort.startsWith("-");
              return (
                <TableHead
                  key={c.label}
                  className={cn("whitespace-nowrap", c.className)}
                  aria-sort={active ? (desc ? "descending" : "ascending") : c.sort ? "none" : undefined}
                >
                  {c.sort ? (
                    <button
                      type="button"
                      onClick={() => sortBy(c.sort!)}
                      className="inline-flex items-center gap-1 uppercase hover:text-slate-800"
                    >
                      {c.label}
                      <span aria-hidden="true">{active ? (desc ? "▼" : "▲") : "↕"}</span>
                    </button>
                  ) : (
                    c.label
                  )}
                </TableHead>
              );
            })}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={COLUMNS.length} className="py-6 text-center text-slate-500">
                {data ? (verdictChange ? "No pair has this verdict change." : "No pairs yet.") : "Loading pairs…"}
              </TableCell>
            </TableRow>
          ) : (
            rows.map((p) => (
              <PairRow key={p.index} workspaceId={workspaceId} comparisonId={comparisonId} pair={p} repetitions={repetitions} />
            ))
          )}
        </TableBody>
      </Table>
      <PrevNextPagination
        className="mt-3"
        label="Pairs pages"
        prev={stack.length > 0 ? { onClick: () => setStack((s) => s.slice(0, -1)) } : null}
        next={data?.next_cursor ? { onClick: () => setStack((s) => [...s, data.next_cursor!]) } : null}
        status={`Page ${stack.length + 1}`}
      />
    </Section>
  );
}

function Verdict({ e }: { e: ExecutionDto | null }) {
  return e ? <CaseStatusBadge status={e.status} /> : <span className="text-xs text-slate-500">pending</span>;
}

function PairRow({
  workspaceId,
  comparisonId,
  pair: p,
  repetitions,
}: {
  workspaceId: string;
  comparisonId: string;
  pair: ComparisonPairDto;
  repetitions: number;
}) {
  const label = pairLabel(p, repetitions);
  return (
    <TableRow className={cn("hover:bg-slate-50", p.verdict_change && FLIPPED_ROW[p.verdict_change as VerdictChange])}>
      <TableCell className="text-slate-500 tabular-nums">{p.index + 1}</TableCell>
      <TableCell className="max-w-56 min-w-32">
        <Link
          href={pairHref(workspaceId, comparisonId, p.index)}
          title={label}
          className="block truncate font-medium text-indigo-700 hover:underline"
        >
          {label}
        </Link>
      </TableCell>
      <TableCell className="whitespace-nowrap">
        <VerdictChangeBadge change={p.verdict_change} />
      </TableCell>
      <TableCell className="text-xs whitespace-nowrap text-slate-600">
        {p.order.map((r) => (r === "baseline" ? "A" : r === "variant" ? "B" : r)).join(" → ") || "—"}
      </TableCell>
      <TableCell>
        <Verdict e={p.baseline} />
      </TableCell>
      <TableCell>
        <Verdict e={p.variant} />
      </TableCell>
      <TableCell className={num}>{formatMs(p.baseline?.latency_ms)}</TableCell>
      <TableCell className={num}>{formatMs(p.variant?.latency_ms)}</TableCell>
      <TableCell className={cn(num, costTone(p.latency_diff_ms))}>{signed(p.latency_diff_ms, " ms")}</TableCell>
      <TableCell className={cn(num, costTone(p.latency_improvement_pct))}>{signed(p.latency_improvement_pct, " %")}</TableCell>
      <TableCell className={cn(num, costTone(p.token_overhead))}>{signed(p.token_overhead)}</TableCell>
      <TableCell className={cn(num, costTone(p.token_overhead_pct))}>{signed(p.token_overhead_pct, " %")}</TableCell>
      <TableCell className={num}>{formatRatio(p.response_length_ratio)}</TableCell>
    </TableRow>
  );
}
