"use client";
import { useEffect, useMemo, useRef, useState, useTransition } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { reorderTestCasesAction } from "@/lib/test-cases/actions";
import { Badge } from "@/components/ui/card";
import { StatusBadge } from "./status-badge";
import { BulkActions } from "./bulk-actions";
import type { CaseRow } from "./types";

type Props = {
  workspaceId: string;
  suiteId: string;
  rows: CaseRow[];
  canEdit: boolean;
  suiteTags: string[];
  /** Every live case id of the suite in order, when reordering is possible (no filters); else null. */
  orderedIds: string[] | null;
};

/** The case list: selection for bulk actions, and move up/down when the list is unfiltered. */
export function CaseTable({ workspaceId, suiteId, rows, canEdit, suiteTags, orderedIds }: Props) {
  const router = useRouter();
  const [selected, setSelected] = useState<Set<string>>(new Set());
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

  const toggle = (id: string) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  return (
    <div className="space-y-3">
      {canEdit && (
        <BulkActions
          workspaceId={workspaceId}
          suiteId={suiteId}
          selected={visibleSelected}
          names={names}
          suiteTags={suiteTags}
          onClear={() => setSelected(new Set())}
        />
      )}
      {canEdit && (
        <p className="text-xs text-slate-500">
          {orderedIds
            ? "Use the arrows to change the order in which cases run."
            : "Reordering is available when no filters are applied (All tab, no tags, difficulty or search)."}
        </p>
      )}
      {reorderError && (
        <p role="status" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          {reorderError}
        </p>
      )}
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Test cases</caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs font-medium uppercase tracking-wide text-slate-500">
            <tr>
              {canEdit && (
                <th scope="col" className="w-10 px-3 py-2">
                  <input
                    type="checkbox"
                    aria-label="Select all cases on this page"
                    checked={allOnPage}
                    onChange={() => setSelected(allOnPage ? new Set() : new Set(rows.map((r) => r.id)))}
                  />
                </th>
              )}
              <th scope="col" className="px-3 py-2">Name</th>
              <th scope="col" className="px-3 py-2">Status</th>
              <th scope="col" className="px-3 py-2">Difficulty</th>
              <th scope="col" className="px-3 py-2">Tags</th>
              <th scope="col" className="px-3 py-2">Type</th>
              <th scope="col" className="px-3 py-2">Updated</th>
              {canEdit && orderedIds && (
                <th scope="col" className="px-3 py-2">
                  <span className="sr-only">Order</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((r) => {
              const pos = orderedIds?.indexOf(r.id) ?? -1;
              return (
                <tr key={r.id} className={selected.has(r.id) ? "bg-indigo-50/40" : undefined}>
                  {canEdit && (
                    <td className="px-3 py-2">
                      <input type="checkbox" aria-label={`Select ${r.name}`} checked={selected.has(r.id)} onChange={() => toggle(r.id)} />
                    </td>
                  )}
                  <td className="max-w-md px-3 py-2">
                    <Link href={`${base}/cases/${r.id}`} className="font-medium text-indigo-700 hover:underline">
                      {r.name}
                    </Link>
                  </td>
                  <td className="px-3 py-2">
                    <StatusBadge status={r.status} />
                  </td>
                  <td className="px-3 py-2 capitalize text-slate-700">{r.difficulty}</td>
                  <td className="px-3 py-2">
                    <span className="flex flex-wrap gap-1">
                      {r.tags.map((t) => (
                        <Badge key={t} tone={t === "red-team" ? "red" : t === "edge-case" ? "amber" : "slate"}>
                          {t}
                        </Badge>
                      ))}
                    </span>
                  </td>
                  <td className="px-3 py-2 text-slate-700">{r.multi_turn ? "Multi-turn" : "Single-turn"}</td>
                  <td className="whitespace-nowrap px-3 py-2 text-slate-600">
                    <time dateTime={r.updated_at}>{r.updated_label}</time>
                  </td>
                  {canEdit && orderedIds && (
                    <td className="whitespace-nowrap px-3 py-2">
                      <button
                        id={`move-up-${r.id}`}
                        type="button"
                        aria-label={`Move ${r.name} up`}
                        disabled={pending || pos <= 0}
                        onClick={() => move(r.id, "up")}
                        className="rounded px-1.5 py-0.5 text-slate-600 hover:bg-slate-100 disabled:text-slate-300"
                      >
                        ↑
                      </button>
                      <button
                        id={`move-down-${r.id}`}
                        type="button"
                        aria-label={`Move ${r.name} down`}
                        disabled={pending || pos < 0 || pos >= orderedIds.length - 1}
                        onClick={() => move(r.id, "down")}
                        className="rounded px-1.5 py-0.5 text-slate-600 hover:bg-slate-100 disabled:text-slate-300"
                      >
                        ↓
                      </button>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
