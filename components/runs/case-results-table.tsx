"use client";
import { LoadError } from "@/components/ui/load-error";
import { useEffect, useId, useMemo, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { CASE_PAGE_SIZE, type CaseResultPage, type CaseTableFilters, type RunDto } from "@/lib/runs/dto";
import type { CaseResultStatus } from "@/lib/runs/schemas";
import { runKeys, useCaseResults } from "@/lib/runs/hooks";
import { Badge, Section, TagBadges } from "@/components/ui/card";
import { CursorStackPagination } from "@/components/ui/pagination";
import { numeric, Table, TableBody, TableCell, TableHead, TableHeader, TableRow, type TableColumn } from "@/components/ui/table";
import { Button } from "@/components/ui/button";
import { Options, Select } from "@/components/ui/field";
import { CaseStatusBadge, CASE_STATUS_LABELS } from "./status-badges";
import { formatDuration, formatNumber } from "./format";
import { CaseStageBadge, stageWorthShowing } from "./case-stage";
import { BulkReviewBar, HumanVerdictBadges, SentNotice, useSendToReview } from "./send-to-review";

const FILTER_STATUSES: CaseResultStatus[] = ["passed", "failed", "error", "skipped", "running", "pending"];
/** Results with a verdict or an error: the ones that can go to review. */
const REVIEWABLE: CaseResultStatus[] = ["passed", "failed", "error"];
const COLUMNS: TableColumn[] = ["Status", "Name", "Tags", ...numeric(["Latency", "Tokens", "Retries", "Turns"])];

type Props = {
  workspaceId: string;
  run: RunDto;
  live: boolean;
  tags: string[];
  initial: CaseResultPage;
  initialFilters: CaseTableFilters;
  /** Editors select rows to send them to review. */
  canEdit?: boolean;
};

function countFor(run: RunDto, status: CaseResultStatus): number | null {
  switch (status) {
    case "passed":
      return run.passed_cases;
    case "failed":
      return run.failed_cases;
    case "error":
      return run.error_cases;
    case "skipped":
      return run.skipped_cases;
    default:
      return null;
  }
}

/**
 * The run's case results: live, filterable by status and tag, paginated by cursor; a row opens the
 * case. Each row shows its human verdict beside the judge's; editors select rows and send them to
 * review from the bar that appears while rows are selected.
 */
export function CaseResultsTable({ workspaceId, run, live, tags, initial, initialFilters, canEdit = false }: Props) {
  const router = useRouter();
  const uid = useId();
  const [status, setStatus] = useState<CaseResultStatus | "">(initialFilters.status ?? "");
  const [tag, setTag] = useState(initialFilters.tag ?? "");
  // Cursor stack: the last entry is the current page's cursor; the first page has none.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const isInitial = status === (initialFilters.status ?? "") && tag === (initialFilters.tag ?? "") && !cursor;
  const query = useCaseResults(
    workspaceId,
    run.id,
    { status: status || undefined, tag: tag || undefined, cursor, limit: CASE_PAGE_SIZE },
    { live, initial: isInitial ? initial : undefined },
  );
  const rows = useMemo(() => query.data?.data ?? [], [query.data]);
  const caseBase = `/w/${workspaceId}/runs/${run.id}/cases`;
  const filtered = Boolean(status || tag);
  const nextCursor = query.data?.next_cursor;

  const [selected, setSelected] = useState<Set<string>>(new Set());
  const review = useSendToReview(workspaceId, runKeys.all(workspaceId, run.id));
  const selectable = rows.filter((r) => REVIEWABLE.includes(r.status));
  const allSelected = selectable.length > 0 && selectable.every((r) => selected.has(r.id));
  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const toggleAll = (on: boolean) => setSelected(on ? new Set(selectable.map((r) => r.id)) : new Set());

  const tagOptions = useMemo(() => [...new Set([...tags, ...rows.flatMap((r) => r.tags)])].sort(), [tags, rows]);

  // Keep the filters in the address so a reload or a shared link shows the same list.
  useEffect(() => {
    const url = new URL(window.location.href);
    for (const [k, v] of [
      ["status", status],
      ["tag", tag],
    ] as const) {
      if (v) url.searchParams.set(k, v);
      else url.searchParams.delete(k);
    }
    if (url.href !== window.location.href) window.history.replaceState(null, "", url);
  }, [status, tag]);

  const changeFilter = (next: { status?: CaseResultStatus | ""; tag?: string }) => {
    if (next.status !== undefined) setStatus(next.status);
    if (next.tag !== undefined) setTag(next.tag);
    setCursors([]);
    setSelected(new Set());
  };

  return (
    <Section
      title="Case results"
      actions={
        <div className="flex flex-wrap items-end gap-3">
          <div className="text-xs text-slate-600">
            <label htmlFor={`${uid}-status`}>Status</label>
            <Select
              id={`${uid}-status`}
              className="mt-1 w-44"
              value={status}
              onChange={(e) => changeFilter({ status: e.target.value as CaseResultStatus | "" })}
            >
              <option value="">All statuses ({run.total_cases})</option>
              {FILTER_STATUSES.map((s) => {
                const n = countFor(run, s);
                return (
                  <option key={s} value={s}>
                    {CASE_STATUS_LABELS[s]}
                    {n === null ? "" : ` (${n})`}
                  </option>
                );
              })}
            </Select>
          </div>
          <div className="text-xs text-slate-600">
            <label htmlFor={`${uid}-tag`}>Tag</label>
            <Select id={`${uid}-tag`} className="mt-1 w-44" value={tag} onChange={(e) => changeFilter({ tag: e.target.value })}>
              <Options values={tagOptions} none="All tags" />
            </Select>
          </div>
        </div>
      }
    >
      {query.isError && <LoadError what="case results" error={query.error} onRetry={() => query.refetch()} />}

      <SentNotice outcome={review.outcome} queueHref={`/w/${workspaceId}/review?run=${run.id}`} />
      {canEdit && selected.size > 0 && (
        <BulkReviewBar
          count={selected.size}
          pending={review.pending}
          onSend={() => review.send([...selected], () => setSelected(new Set()))}
          onClear={() => setSelected(new Set())}
        />
      )}

      {!query.data && query.isPending ? (
        <p className="py-6 text-center text-sm text-slate-500">Loading case results…</p>
      ) : rows.length === 0 ? (
        <div className="rounded-md border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600">
          {filtered ? (
            <>
              <p>No case results match these filters{live ? " yet" : ""}.</p>
              <Button className="mt-3" size="sm" variant="secondary" onClick={() => changeFilter({ status: "", tag: "" })}>
                Clear filters
              </Button>
            </>
          ) : (
            <p>This run has no case results.</p>
          )}
        </div>
      ) : (
        <Table variant="plain" density="compact">
          {canEdit ? (
            <TableHeader>
              <TableRow>
                <TableHead className="w-8">
                  <input
                    type="checkbox"
                    className="h-4 w-4"
                    aria-label="Select every finished result on this page"
                    checked={allSelected}
                    disabled={selectable.length === 0}
                    onChange={(e) => toggleAll(e.target.checked)}
                  />
                </TableHead>
                {COLUMNS.map((c) => {
                  const col = typeof c === "string" ? { label: c, align: undefined } : c;
                  return (
                    <TableHead key={col.label} className={col.align === "right" ? "text-right" : undefined}>
                      {col.label}
                    </TableHead>
                  );
                })}
              </TableRow>
            </TableHeader>
          ) : (
            <TableHeader columns={COLUMNS} />
          )}
          <TableBody>
            {rows.map((r) => (
              <TableRow
                key={r.id}
                className="cursor-pointer align-top hover:bg-slate-50"
                onClick={() => router.push(`${caseBase}/${r.id}`)}
              >
                {canEdit && (
                  <TableCell onClick={(e) => e.stopPropagation()}>
                    <input
                      type="checkbox"
                      className="h-4 w-4"
                      aria-label={`Select ${r.name}${run.trials > 1 ? `, trial ${r.trial + 1}` : ""}`}
                      checked={selected.has(r.id)}
                      disabled={!REVIEWABLE.includes(r.status)}
                      onChange={(e) => toggle(r.id, e.target.checked)}
                    />
                  </TableCell>
                )}
                <TableCell>
                  <div className="flex flex-col items-start gap-1">
                    <CaseStatusBadge status={r.status} />
                    {stageWorthShowing(r.status, r.stage) && <CaseStageBadge stage={r.stage} />}
                    <HumanVerdictBadges status={r.status} humanVerdict={r.human_verdict} reviewStatus={r.review_status} />
                  </div>
                </TableCell>
                <TableCell className="max-w-md">
                  <Link
                    href={`${caseBase}/${r.id}`}
                    className="font-medium text-indigo-700 hover:underline"
                    onClick={(e) => e.stopPropagation()}
                  >
                    {r.name}
                  </Link>
                  {run.trials > 1 && <span className="ml-2 text-xs whitespace-nowrap text-slate-600">Trial {r.trial + 1}</span>}
                  {r.variant === "variant" && (
                    <Badge tone="indigo" className="ml-2">
                      variant
                    </Badge>
                  )}
                  {r.error_message && r.status !== "passed" && (
                    <p className="mt-0.5 line-clamp-2 text-xs text-slate-600" title={r.error_message}>
                      {r.error_type ? <span className="font-medium">{r.error_type} error: </span> : null}
                      {r.error_message}
                    </p>
                  )}
                  {r.status === "failed" && r.failure_reasons.length > 0 && (
                    <p className="mt-0.5 line-clamp-2 text-xs text-slate-600" title={r.failure_reasons.join("; ")}>
                      {r.failure_reasons.join("; ")}
                    </p>
                  )}
                </TableCell>
                <TableCell>
                  <TagBadges tags={r.tags} />
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatDuration(r.latency_ms)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(r.prompt_tokens + r.completion_tokens)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(r.retry_count)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(r.turns)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}

      <CursorStackPagination cursors={cursors} setCursors={setCursors} nextCursor={nextCursor} waiting={query.isPlaceholderData} />
    </Section>
  );
}
