"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import type { RunDto } from "@/lib/runs/dto";
import type { RerunScope } from "@/lib/runs/schemas";
import { rerunRunAction } from "@/lib/runs/rerun-actions";
import { Button } from "@/components/ui/button";

/**
 * Starts a re-run of `runId` over one scope (with `caseResultIds` for "selected") and opens the new
 * run; `busy` is the scope starting, `error` the first reason it could not.
 */
export function useRerun(workspaceId: string, runId: string) {
  const router = useRouter();
  const [busy, setBusy] = useState<RerunScope | null>(null);
  const [error, setError] = useState<string | null>(null);
  const rerun = async (only: RerunScope, caseResultIds?: string[]) => {
    setBusy(only);
    setError(null);
    try {
      const result = await rerunRunAction(workspaceId, { id: runId, only, ...(caseResultIds && { case_result_ids: caseResultIds }) });
      if (!result.ok) {
        setError(result.issues[0]?.message ?? result.error);
        return;
      }
      router.push(`/w/${workspaceId}/runs/${result.data.id}`);
    } finally {
      setBusy(null);
    }
  };
  return { rerun, busy, error };
}

/** The scopes a finished run offers, each only when some case matches it ("all" always). */
function offeredScopes(run: RunDto, flakyCases: number): { only: RerunScope; label: string }[] {
  const scopes: { only: RerunScope; label: string; show: boolean }[] = [
    { only: "failed", label: "Re-run failed", show: run.failed_cases > 0 },
    { only: "errors", label: "Re-run errors", show: run.error_cases > 0 },
    { only: "flaky", label: "Re-run flaky", show: flakyCases > 0 },
    { only: "all", label: "Re-run all", show: true },
  ];
  return scopes.filter((s) => s.show);
}

/**
 * "Re-run failed / errors / flaky / all" on a finished run (editors): a new run over those cases
 * under the run's conditions, linked back to it; opens the new run. Render it only for a
 * finished ordinary run of a suite that is not in the trash.
 */
export function RerunButtons({ workspaceId, run, flakyCases }: { workspaceId: string; run: RunDto; flakyCases: number }) {
  const { rerun, busy, error } = useRerun(workspaceId, run.id);

  return (
    <div className="flex flex-col items-start gap-1">
      <div role="group" aria-label="Re-run" className="flex flex-wrap gap-2">
        {offeredScopes(run, flakyCases).map((s) => (
          <Button key={s.only} size="sm" variant="secondary" disabled={busy !== null} onClick={() => void rerun(s.only)}>
            {busy === s.only ? "Starting…" : s.label}
          </Button>
        ))}
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
