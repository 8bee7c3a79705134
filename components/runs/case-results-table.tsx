"use client";
import { LoadError } from "@/components/ui/load-error";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useSelection } from "@/components/ui/use-selection";
import { useRerun } from "./rerun-buttons";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { CASE_PAGE_SIZE, type CaseResultPage, type CaseResultRow, type CaseTableFilters, type RunDto } from "@/lib/runs/dto";
import { MAX_CASE_SEARCH, type CaseResultStatus } from "@/lib/runs/schemas";
import { DEFAULT_CASE_SORT, type CaseSortKey, type SortDir } from "@/lib/runs/case-sort";
import { caseTableLocation, caseTableParams, withCaseTableParams } from "@/lib/runs/case-table-location";
import { runKeys, useCaseResults } from "@/lib/runs/hooks";
import { Badge, Section, TagBadges } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { Button } from "@/components/ui/button";
import { Options, Select } from "@/components/ui/field";
import { CaseStatusBadge } from "./status-badges";
import { formatDuration, formatNumber } from "./format";
import { formatUsd } from "@/lib/runs/cost";
import { CaseStageBadge, stageWorthShowing } from "./case-stage";
import { BulkReviewBar, HumanVerdictBadges, SentNotice, useSendToReview } from "./send-to-review";
import { CaseSearch, RangePager, SortHeader, StatusChips } from "./case-table-controls";

/** Results with a verdict or an error: the ones that can go to review or run again. */
const REVIEWABLE: CaseResultStatus[] = ["passed", "failed", "error"];

type Props = {
  workspaceId: string;
  run: RunDto;
  live: boolean;
  tags: string[];
  initial: CaseResultPage;
  initialFilters: CaseTableFilters;
  /** Editors select rows to send them to review. */
  canEdit?: boolean;
  /** Editors may re-run the selected rows' cases (a finished ordinary run of a live suite). */
  canRerun?: boolean;
};

const sameLocation = (a: CaseTableFilters, b: CaseTableFilters) => caseTableParams(a).toString() === caseTableParams(b).toString();

/** Why a failed or errored row did not pass, in one line, with how many more reasons the case has. */
function RowReason({ row }: { row: CaseResultRow }) {
  const reason = row.failure_reason;
  if (!reason) return null;
  const full = row.status === "failed" && row.failure_reasons.length > 0 ? row.failure_reasons.join("; ") : reason.text;
  return (
    <p
      className={`mt-0.5 line-clamp-2 text-xs ${row.status === "error" ? "text-amber-800" : "text-red-800"}`}
      title={full}
      data-testid="case-row-reason"
    >
      {reason.text}
      {reason.more > 0 && <span className="ml-1 whitespace-nowrap text-slate-600">(+{reason.more} more)</span>}
    </p>
  );
}

/**
 * The run's case results for triage: failures first, each failed or errored row saying why in
 * one line; status chips with counts, a search, sortable columns and "1–50 of 300" pages, all
 * done in SQL and kept in the URL (a reload, a shared link and the case view's "Back to run"
 * show the same list; the row links carry it so the case view walks the same order). Live while
 * the run runs. Editors select rows to send them to review or re-run their cases from the bar
 * that appears while rows are selected.
 */
export function CaseResultsTable({ workspaceId, run, live, tags, initial, initialFilters, canEdit = false, canRerun = false }: Props) {
  const router = useRouter();
  // From the address, not only the server's first render: back/forward restores a page rendered
  // for its first address, while the table kept its later location in the address.
  const searchParams = useSearchParams();
  const [location, setLocation] = useState<CaseTableFilters>(() => caseTableLocation(searchParams));
  const sort = location.sort ?? DEFAULT_CASE_SORT.sort;
  const dir = location.dir ?? DEFAULT_CASE_SORT.dir;
  const page = location.page ?? 1;
  const query = useCaseResults(
    workspaceId,
    run.id,
    { ...location, limit: CASE_PAGE_SIZE },
    { live, initial: sameLocation(location, initialFilters) ? initial : undefined },
  );
  const data = query.data;
  const rows = useMemo(() => data?.data ?? [], [data]);
  const caseBase = `/w/${workspaceId}/runs/${run.id}/cases`;
  const caseHref = (id: string) => withCaseTableParams(`${caseBase}/${id}`, location, { page: false });
  const filtered = Boolean(location.status || location.tag || location.q);

  const { selected, toggle, select } = useSelection();
  const review = useSendToReview(workspaceId, runKeys.all(workspaceId, run.id));
  const rerun = useRerun(workspaceId, run.id);
  const selectable = rows.filter((r) => REVIEWABLE.includes(r.status));
  const allSelected = selectable.length > 0 && selectable.every((r) => selected.has(r.id));
  const toggleAll = (on: boolean) => select(on ? selectable.map((r) => r.id) : []);

  const tagOptions = useMemo(() => [...new Set([...tags, ...rows.flatMap((r) => r.tags)])].sort(), [tags, rows]);

  // Keep the table's location in the address so a reload or a shared link shows the same list.
  useEffect(() => {
    const url = new URL(window.location.href);
    const own = caseTableParams(location);
    for (const key of ["status", "tag", "q", "sort", "dir", "page"]) {
      const v = own.get(key);
      if (v) url.searchParams.set(key, v);
      else url.searchParams.delete(key);
    }
    if (url.href !== window.location.href) window.history.replaceState(window.history.state, "", url);
  }, [location]);

  /** A new filter, search or order starts at page 1 with nothing selected. */
  const change = useCallback(
    (next: Partial<CaseTableFilters>) => {
      setLocation((prev) => ({ ...prev, ...next, page: next.page ?? 1 }));
      select([]);
    },
    [select],
  );
  const onSearch = useCallback((q: string) => change({ q: q || undefined }), [change]);
  const onSort = (s: CaseSortKey, d: SortDir) => change({ sort: s, dir: d });

  return (
    <Section
      title="Case results"
      actions={
        <div className="flex w-full flex-wrap items-end gap-3 sm:w-auto">
          <CaseSearch value={location.q ?? ""} onChange={onSearch} maxLength={MAX_CASE_SEARCH} />
          <div className="text-xs text-slate-600">
            <label htmlFor={`${run.id}-tag`}>Tag</label>
            <Select
              id={`${run.id}-tag`}
              className="mt-1 w-44"
              value={location.tag ?? ""}
              onChange={(e) => change({ tag: e.target.value || undefined })}
            >
              <Options values={tagOptions} none="All tags" />
            </Select>
          </div>
        </div>
      }
    >
      {data && (
        <div className="mb-3">
          <StatusChips counts={data.counts} status={location.status} onChange={(status) => change({ status })} />
        </div>
      )}
      {query.isError && <LoadError what="case results" error={query.error} onRetry={() => query.refetch()} />}

      <SentNotice outcome={review.outcome} queueHref={`/w/${workspaceId}/review?run=${run.id}`} />
      {rerun.error && (
        <p role="status" className="mb-3 text-sm text-red-700">
          {rerun.error}
        </p>
      )}
      {canEdit && selected.size > 0 && (
        <BulkReviewBar
          count={selected.size}
          pending={review.pending || rerun.busy !== null}
          onSend={() => review.send([...selected], () => select([]))}
          onClear={() => select([])}
        >
          {canRerun && (
            <Button
              size="sm"
              variant="secondary"
              disabled={review.pending || rerun.busy !== null}
              onClick={() => void rerun.rerun("selected", [...selected])}
            >
              {rerun.busy ? "Starting…" : "Re-run selected"}
            </Button>
          )}
        </BulkReviewBar>
      )}

      {!data && query.isPending ? (
        <p className="py-6 text-center text-sm text-slate-500">Loading case results…</p>
      ) : rows.length === 0 ? (
        <div className="rounded-md border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600">
          {page > 1 && (data?.total ?? 0) > 0 ? (
            <>
              <p>This page is past the end of the list.</p>
              <Button className="mt-3" size="sm" variant="secondary" onClick={() => change({ page: 1 })}>
                First page
              </Button>
            </>
          ) : filtered ? (
            <>
              <p>No case results match these filters{live ? " yet" : ""}.</p>
              <Button
                className="mt-3"
                size="sm"
                variant="secondary"
                onClick={() => change({ status: undefined, tag: undefined, q: undefined })}
              >
                Clear filters
              </Button>
            </>
          ) : (
            <p>This run has no case results.</p>
          )}
        </div>
      ) : (
        <Table variant="plain" density="compact" caption="Case results" aria-busy={query.isPlaceholderData}>
          <TableHeader>
            <TableRow>
              {canEdit && (
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
              )}
              <SortHeader label="Status" sortKey="status" sort={sort} dir={dir} onSort={onSort} />
              <SortHeader label="Name" sortKey="name" sort={sort} dir={dir} onSort={onSort} />
              <TableHead>Tags</TableHead>
              <SortHeader label="Latency" sortKey="latency" sort={sort} dir={dir} onSort={onSort} align="right" />
              <SortHeader label="Tokens" sortKey="tokens" sort={sort} dir={dir} onSort={onSort} align="right" />
              <SortHeader label="Cost" sortKey="cost" sort={sort} dir={dir} onSort={onSort} align="right" />
              <TableHead className="text-right">Retries</TableHead>
              <TableHead className="text-right">Turns</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.id} className="cursor-pointer align-top hover:bg-slate-50" onClick={() => router.push(caseHref(r.id))}>
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
                <TableCell className="max-w-md min-w-48">
                  <Link href={caseHref(r.id)} className="font-medium text-indigo-700 hover:underline" onClick={(e) => e.stopPropagation()}>
                    {r.name}
                  </Link>
                  {run.trials > 1 && <span className="ml-2 text-xs whitespace-nowrap text-slate-600">Trial {r.trial + 1}</span>}
                  {r.variant === "variant" && (
                    <Badge tone="indigo" className="ml-2">
                      variant
                    </Badge>
                  )}
                  <RowReason row={r} />
                  {r.status === "skipped" && r.error_message && (
                    <p className="mt-0.5 line-clamp-2 text-xs text-slate-600" title={r.error_message}>
                      {r.error_message}
                    </p>
                  )}
                </TableCell>
                <TableCell>
                  <TagBadges tags={r.tags} />
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatDuration(r.latency_ms)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(r.prompt_tokens + r.completion_tokens)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatUsd(r.cost_usd)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(r.retry_count)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(r.turns)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}

      {data && (
        <RangePager
          page={page}
          limit={CASE_PAGE_SIZE}
          shown={rows.length}
          total={data.total}
          waiting={query.isPlaceholderData}
          onPage={(p) => change({ page: p })}
        />
      )}
    </Section>
  );
}
