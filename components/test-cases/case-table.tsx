"use client";
import { useEffect, useMemo, useRef, useState, useTransition } from "react";
import { useSelection } from "@/components/ui/use-selection";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { reorderTestCasesAction } from "@/lib/test-cases/actions";
import { Badge } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { StatusBadge } from "./status-badge";
import { NEW_ROW_CLASS, NewCaseBadge, useCreatedCaseId } from "./created-case";
import { BulkActions } from "./bulk-actions";
import type { CaseRow } from "@/lib/test-cases/dto";
import { StartRunButton, type SuiteLaunch } from "@/components/runs/start-run-button";
import { markLabel, ResultStrip } from "@/components/runs/result-strip";
import { CaseStatusBadge } from "@/components/runs/status-badges";

type Props = {
  /** The suite: where it is, its tags (for bulk tagging) and what "Run selected" needs. */
  suite: SuiteLaunch;
  rows: CaseRow[];
  canEdit: boolean;
  /** Every live case id of the suite in order, when reordering is possible (no filters); else null. */
  orderedIds: string[] | null;
  /** The "Last verdict" column header's sort link (the page's URL with or without the verdict order). */
  verdictSort: { href: string; active: boolean };
};

/** The case list: selection for bulk actions, and move up/down when the list is unfiltered. */
export function CaseTable({ suite, rows, canEdit, orderedIds, verdictSort }: Props) {
  const { workspaceId, suiteId } = suite;
  const createdId = useCreatedCaseId();
  const router = useRouter();
  const { selected, toggle, select } = useSelection();
  const [reorderError, setReorderError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const focusAfter = useRef<{ id: string; dir: "up" | "down" } | null>(null);
  const base = `/w/${workspaceId}/suites/${suiteId}`;

  const visibleSelected = rows.filter((r) => selected.has(r.id)).map((r) => r.id);
  const names = useMemo(() => new Map(rows.map((r) => [r.id, r.name])), [rows]);
  const allOnPage = rows.length > 0 && visibleSelected.length === rows.length;

  // Keyboard users keep their place: focus the moved row's button again after the refresh.
  useEffect(() => {
    const f = focusAfter.current;
    if (!f) return;
    const el = document.getElementById(`move-${f.dir}-${f.id}`) as HTMLButtonElement | null;
    const other = document.getElementById(`move-${f.dir === "up" ? "down" : "up"}-${f.id}`) as HTMLButtonElement | null;
    (el && !el.disabled ? el : other)?.focus();
    focusAfter.current = null;
  }, [rows]);

  const move = (id: string, dir: "up" | "down") => {
    if (!orderedIds) return;
    const i = orderedIds.indexOf(id);
    const j = dir === "up" ? i - 1 : i + 1;
    if (i < 0 || j < 0 || j >= orderedIds.length) return;
    const next = [...orderedIds];
    [next[i], next[j]] = [next[j]!, next[i]!];
    startTransition(async () => {
      setReorderError(null);
      const r = await reorderTestCasesAction(workspaceId, { suite_id: suiteId, ids: next });
      if (!r.ok) setReorderError(`${r.error}. The list was refreshed; try again.`);
      else focusAfter.current = { id, dir };
      router.refresh();
    });
  };

  return (
    <div className="space-y-3">
      {canEdit && visibleSelected.length > 0 && (
        <BulkActions
          workspaceId={workspaceId}
          suiteId={suiteId}
          selected={visibleSelected}
          names={names}
          suiteTags={suite.tags}
          onClear={() => select([])}
        />
      )}
      {canEdit && (
        <div className="flex items-center gap-2">
          <StartRunButton
            suite={suite}
            caseIds={visibleSelected}
            label={visibleSelected.length > 0 ? `Run selected (${visibleSelected.length})` : "Run selected"}
            buttonVariant="secondary"
            disabled={visibleSelected.length === 0}
          />
          {visibleSelected.length === 0 && <span className="text-xs text-slate-500">Check cases to run just those.</span>}
        </div>
      )}
      {canEdit && (
        <p className="text-xs text-slate-500">
          {orderedIds
            ? "Use the arrows to change the order in which cases run."
            : "Reordering is available in run order with no filters applied (All tab, no tags, difficulty or search)."}
        </p>
      )}
      {reorderError && (
        <p role="status" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          {reorderError}
        </p>
      )}
      <Table density="compact" caption="Test cases">
        <TableHeader>
          <TableRow>
            {canEdit && (
              <TableHead className="w-10">
                <input
                  type="checkbox"
                  aria-label="Select all cases on this page"
                  checked={allOnPage}
                  onChange={() => select(allOnPage ? [] : rows.map((r) => r.id))}
                />
              </TableHead>
            )}
            <TableHead>Name</TableHead>
            <TableHead aria-sort={verdictSort.active ? "ascending" : undefined}>
              <Link href={verdictSort.href} className="whitespace-nowrap text-indigo-700 hover:underline">
                {verdictSort.active ? "Last verdict, failed first ▲" : "Last verdict"}
                <span className="sr-only">{verdictSort.active ? " (sorted; select for run order)" : " (select to sort failed first)"}</span>
              </Link>
            </TableHead>
            <TableHead>Latest results</TableHead>
            {["Status", "Difficulty", "Tags", "Type", "Updated"].map((h) => (
              <TableHead key={h}>{h}</TableHead>
            ))}
            {canEdit && orderedIds && <TableHead srLabel="Order" />}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((r) => {
            const pos = orderedIds?.indexOf(r.id) ?? -1;
            return (
              <TableRow
                key={r.id}
                data-created={r.id === createdId || undefined}
                className={r.id === createdId ? NEW_ROW_CLASS : selected.has(r.id) ? "bg-indigo-50/40" : undefined}
              >
                {canEdit && (
                  <TableCell>
                    <input type="checkbox" aria-label={`Select ${r.name}`} checked={selected.has(r.id)} onChange={() => toggle(r.id)} />
                  </TableCell>
                )}
                <TableCell className="max-w-md">
                  <Link href={`${base}/cases/${r.id}`} className="font-medium text-indigo-700 hover:underline">
                    {r.name}
                  </Link>
                  {r.id === createdId && <NewCaseBadge />}
                </TableCell>
                <TableCell>
                  {r.last_verdict ? (
                    <CaseStatusBadge status={r.last_verdict} />
                  ) : (
                    <span className="text-xs whitespace-nowrap text-slate-500">Not run yet</span>
                  )}
                </TableCell>
                <TableCell>
                  {r.recent.length > 0 && (
                    <ResultStrip
                      label={`Latest results of ${r.name}, newest first`}
                      className="flex-nowrap"
                      marks={r.recent.map((h) => ({
                        id: h.id,
                        href: `/w/${workspaceId}/runs/${h.run_id}/cases/${h.id}`,
                        status: h.status,
                        label: markLabel(`Run #${h.run_number}, trial ${h.trial + 1}`, h.status),
                      }))}
                    />
                  )}
                </TableCell>
                <TableCell>
                  <StatusBadge status={r.status} />
                </TableCell>
                <TableCell className="text-slate-700 capitalize">{r.difficulty}</TableCell>
                <TableCell>
                  <span className="flex flex-wrap gap-1">
                    {r.tags.map((t) => (
                      <Badge key={t} tone={t === "red-team" ? "red" : t === "edge-case" ? "amber" : "slate"}>
                        {t}
                      </Badge>
                    ))}
                  </span>
                </TableCell>
                <TableCell className="text-slate-700">{r.multi_turn ? "Multi-turn" : "Single-turn"}</TableCell>
                <TableCell className="whitespace-nowrap text-slate-600">
                  <time dateTime={r.updated_at}>{r.updated_label}</time>
                </TableCell>
                {canEdit && orderedIds && (
                  <TableCell className="whitespace-nowrap">
                    {(["up", "down"] as const).map((dir) => (
                      <button
                        key={dir}
                        id={`move-${dir}-${r.id}`}
                        type="button"
                        aria-label={`Move ${r.name} ${dir}`}
                        disabled={pending || (dir === "up" ? pos <= 0 : pos < 0 || pos >= orderedIds.length - 1)}
                        onClick={() => move(r.id, dir)}
                        className="rounded px-1.5 py-0.5 text-slate-600 hover:bg-slate-100 disabled:text-slate-300"
                      >
                        {dir === "up" ? "↑" : "↓"}
                      </button>
                    ))}
                  </TableCell>
                )}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
