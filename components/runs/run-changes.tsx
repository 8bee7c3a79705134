"use client";
import Link from "next/link";
import type { CaseResultStatus } from "@/lib/runs/schemas";
import type { RunChanges } from "@/lib/runs/dto";
import { useRunChanges } from "@/lib/runs/hooks";
import { Card } from "@/components/ui/card";
import { CaseStatusBadge } from "./status-badges";

type Change = RunChanges["regressions"][number];

/** Cases whose verdict changed since the suite's previous completed run. */
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
  const base = `/w/${workspaceId}/runs`;
  return (
    <Card className="space-y-3 p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-base font-semibold">Changes since the previous run</h2>
        {data?.previous_run_id && (
          <Link href={`${base}/${data.previous_run_id}`} className="text-sm text-indigo-700 hover:underline">
            Open the previous run
          </Link>
        )}
      </div>
      {isError ? (
        <p className="text-sm text-red-700">Could not load the changes: {error.message}</p>
      ) : !data ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : !data.previous_run_id ? (
        <p className="text-sm text-slate-500">No earlier completed run of this suite to compare with.</p>
      ) : data.regressions.length === 0 && data.fixes.length === 0 ? (
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
    </Card>
  );
}

function ChangeList({ title, hint, items, base, tone }: { title: string; hint: string; items: Change[]; base: string; tone: string }) {
  return (
    <section aria-label={title}>
      <h3 className={`text-sm font-semibold ${tone}`}>
        {title} ({items.length}) <span className="font-normal text-slate-500">— {hint}</span>
      </h3>
      {items.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">None</p>
      ) : (
        <ul className="mt-1 space-y-1 text-sm">
          {items.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center gap-2">
              <Link href={`${base}/${c.id}`} className="font-medium text-indigo-700 hover:underline">
                {c.name}
              </Link>
              <CaseStatusBadge status={c.before as CaseResultStatus} />
              <span aria-hidden>→</span>
              <span className="sr-only">to</span>
              <CaseStatusBadge status={c.after as CaseResultStatus} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
