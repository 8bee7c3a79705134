"use client";
import { LoadError } from "@/components/ui/load-error";
import { useEffect, useId, useMemo, useState } from "react";
import type { RunDto } from "@/lib/runs/dto";
import { STABILITIES } from "@/lib/runs/schemas";
import type { Stability } from "@/lib/runs/trials";
import { isOpenCase } from "@/lib/runs/hooks";
import { useRunCases } from "@/lib/runs/trial-hooks";
import type { RunCasesFilters, RunCasesPage } from "@/lib/runs/dto";
import { Section, TagBadges } from "@/components/ui/card";
import { CursorStackPagination } from "@/components/ui/pagination";
import { Table, TableBody, TableCell, TableHeader, TableRow } from "@/components/ui/table";
import { Button } from "@/components/ui/button";
import { Options, Select } from "@/components/ui/field";
import { StabilityBadge, STABILITY_LABELS } from "./status-badges";
import { markLabel, ResultStrip } from "./result-strip";

type Props = {
  workspaceId: string;
  run: RunDto;
  live: boolean;
  initial: RunCasesPage;
  initialFilters: RunCasesFilters;
};

/** "2 of 3 passed · 1 error": a case's trials in words (errors apart: they are not failures). */
function trialCounts(c: RunCasesPage["data"][number]): string {
  const judged = c.trials - c.errored_trials;
  const parts = [judged > 0 ? `${c.passed_trials} of ${judged} passed` : "none judged"];
  if (c.errored_trials > 0) parts.push(`${c.errored_trials} ${c.errored_trials === 1 ? "error" : "errors"}`);
  const open = c.results.filter((t) => isOpenCase(t.status)).length;
  if (open > 0) parts.push(`${open} to go`);
  return parts.join(" · ");
}

/**
 * A run with several trials, one row per test case: its trial strip (each mark opens that trial),
 * the passed trials and the stability label; filterable by stability (kept in the URL), paginated
 * by cursor, live while the run is active so the strips fill as trials finish.
 */
export function RunCasesTable({ workspaceId, run, live, initial, initialFilters }: Props) {
  const uid = useId();
  const [stability, setStability] = useState<Stability | "">(initialFilters.stability ?? "");
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const isInitial = stability === (initialFilters.stability ?? "") && !cursor;
  const query = useRunCases(
    workspaceId,
    run.id,
    { stability: stability || undefined, cursor },
    { live, initial: isInitial ? initial : undefined },
  );
  const rows = useMemo(() => query.data?.data ?? [], [query.data]);
  const caseBase = `/w/${workspaceId}/runs/${run.id}/cases`;
  const nextCursor = query.data?.next_cursor;

  // Keep the filter in the address so a reload or a shared link shows the same list.
  useEffect(() => {
    const url = new URL(window.location.href);
    if (stability) url.searchParams.set("stability", stability);
    else url.searchParams.delete("stability");
    if (url.href !== window.location.href) window.history.replaceState(null, "", url);
  }, [stability]);

  const changeStability = (next: Stability | "") => {
    setStability(next);
    setCursors([]);
  };

  return (
    <Section
      title="Cases"
      description={`Each case ran ${run.trials} times; every mark is one trial.`}
      actions={
        <div className="text-xs text-slate-600">
          <label htmlFor={`${uid}-stability`}>Stability</label>
          <Select
            id={`${uid}-stability`}
            className="mt-1 w-44"
            value={stability}
            onChange={(e) => changeStability(e.target.value as Stability | "")}
          >
            <Options values={STABILITIES} labels={STABILITY_LABELS} none="All cases" />
          </Select>
        </div>
      }
    >
      {query.isError && <LoadError what="the cases" error={query.error} onRetry={() => query.refetch()} />}

      {!query.data && query.isPending ? (
        <p className="py-6 text-center text-sm text-slate-500">Loading cases…</p>
      ) : rows.length === 0 ? (
        <div className="rounded-md border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600">
          {stability ? (
            <>
              <p>
                No case is {STABILITY_LABELS[stability].toLowerCase()}
                {live ? " yet" : ""}.
              </p>
              <Button className="mt-3" size="sm" variant="secondary" onClick={() => changeStability("")}>
                Show all cases
              </Button>
            </>
          ) : (
            <p>This run has no cases.</p>
          )}
        </div>
      ) : (
        <Table variant="plain" density="compact" caption="Cases and their trials">
          <TableHeader columns={["Stability", "Name", "Trials", "Tags"]} />
          <TableBody>
            {rows.map((c) => (
              <TableRow key={c.results[0]?.id ?? c.name} className="align-top">
                <TableCell>
                  <StabilityBadge stability={c.stability} />
                </TableCell>
                <TableCell className="max-w-md font-medium wrap-anywhere text-slate-900">{c.name}</TableCell>
                <TableCell>
                  <ResultStrip
                    label={`Trials of ${c.name}`}
                    marks={c.results.map((t) => ({
                      id: t.id,
                      href: `${caseBase}/${t.id}`,
                      status: t.status,
                      label: markLabel(`Trial ${t.trial + 1}`, t.status),
                    }))}
                  />
                  <p className="mt-1 text-xs text-slate-600">{trialCounts(c)}</p>
                </TableCell>
                <TableCell>
                  <TagBadges tags={c.tags} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}

      <CursorStackPagination cursors={cursors} setCursors={setCursors} nextCursor={nextCursor} waiting={query.isPlaceholderData} />
    </Section>
  );
}
