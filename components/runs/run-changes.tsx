"use client";
import { useId } from "react";
import Link from "next/link";
import type { CaseResultStatus } from "@/lib/runs/schemas";
import type { RunChanges } from "@/lib/runs/dto";
import { useRunChanges } from "@/lib/runs/hooks";
import { Card } from "@/components/ui/card";
import { CaseStatusBadge } from "./status-badges";
import { CauseBadge } from "./cause-badge";
import { ChangeDetailsDisclosure } from "./change-details";
import { deltaSummary, runLabel } from "./change-format";

type Change = RunChanges["regressions"][number];

/**
 * Cases whose verdict changed since the suite's previous completed run, each with why (the case
 * changed, the agent changed, both, or neither: possibly flaky), a line on what changed between
 * the runs as a whole, and "What changed" to see it field by field.
 */
export function RunChangesCard({
  workspaceId,
  runId,
  live,
  initial,
}: {
  workspaceId: string;
  runId: string;
  live: boolean;
  initial?: RunChanges;
}) {
  const { data, isError, error } = useRunChanges(workspaceId, runId, { live, initial });
  const headingId = useId();
  const base = `/w/${workspaceId}/runs`;
  const since = runLabel(data?.previous_run_number);
  const flips = data ? data.regressions.length + data.fixes.length : 0;
  const edited = data ? [...data.regressions, ...data.fixes].filter((c) => c.case_changed).length : 0;
  const somethingChanged = Boolean(data && (data.agent_changed || data.evaluation_changed || edited > 0));
  return (
    <Card role="region" aria-labelledby={headingId} className="min-w-0 space-y-3 p-5">
      <h2 id={headingId} className="text-base font-semibold">
        {data?.previous_run_id ? (
          <>
            Changes since{" "}
            <Link href={`${base}/${data.previous_run_id}`} className="text-indigo-700 underline hover:text-indigo-900">
              {since}
            </Link>
          </>
        ) : (
          "Changes since the previous run"
        )}
      </h2>
      {isError ? (
        <p className="text-sm text-red-700">Could not load the changes: {error.message}</p>
      ) : !data ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : !data.previous_run_id ? (
        <p className="text-sm text-slate-500">No earlier completed run of this suite to compare with.</p>
      ) : (
        <>
          <p className="text-sm text-slate-700" data-testid="run-changes-summary">
            {deltaSummary(since, data)}
            {edited > 0 && ` ${edited === 1 ? "One flipped case was" : `${edited} flipped cases were`} edited.`}
          </p>
          {flips === 0 ? (
            <p className="text-sm text-slate-500">No case changed between passing and failing{live ? " so far" : ""}.</p>
          ) : (
            <div className="grid gap-4 md:grid-cols-2">
              <ChangeList
                title="Regressions"
                hint="passed before, fail now"
                items={data.regressions}
                base={`${base}/${runId}/cases`}
                tone="text-red-700"
              />
              <ChangeList
                title="Fixes"
                hint="failed before, pass now"
                items={data.fixes}
                base={`${base}/${runId}/cases`}
                tone="text-green-700"
              />
            </div>
          )}
          {somethingChanged && <ChangeDetailsDisclosure workspaceId={workspaceId} runId={runId} since={since} flips={flips} />}
        </>
      )}
    </Card>
  );
}

function ChangeList({ title, hint, items, base, tone }: { title: string; hint: string; items: Change[]; base: string; tone: string }) {
  return (
    <section aria-label={title} className="min-w-0">
      <h3 className={`text-sm font-semibold ${tone}`}>
        {title} ({items.length}) <span className="font-normal text-slate-500">— {hint}</span>
      </h3>
      {items.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">None</p>
      ) : (
        <ul className="mt-1 space-y-1 text-sm">
          {items.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center gap-2">
              <Link href={`${base}/${c.id}`} className="min-w-0 font-medium break-words text-indigo-700 hover:underline">
                {c.name}
              </Link>
              <CaseStatusBadge status={c.before as CaseResultStatus} />
              <span aria-hidden>→</span>
              <span className="sr-only">to</span>
              <CaseStatusBadge status={c.after as CaseResultStatus} />
              <CauseBadge cause={c.cause} caseChanged={c.case_changed} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
