"use client";
import { useId, useState } from "react";
import { useRouter } from "next/navigation";
import { comparableRunsAction, createComparisonAction } from "@/lib/comparisons/actions";
import { InputField } from "@/components/ui/field";
import { LaunchDialog, LaunchForm } from "@/components/ui/launch-dialog";
import { formatDateTime, formatPercent } from "@/components/runs/format";
import { runLabel } from "@/lib/runs/dto";
import { comparisonHref } from "./paths";

type ComparableRuns = Extract<Awaited<ReturnType<typeof comparableRunsAction>>, { ok: true }>["data"];

/**
 * "Compare with…" on a completed run: pick another completed run of the same suite and whether
 * this run is the baseline or the variant; creates a compare-two-runs comparison (no execution,
 * pairs matched by test case) and opens it.
 */
export function CompareRunsButton({ workspaceId, runId }: { workspaceId: string; runId: string }) {
  const router = useRouter();
  const uid = useId();
  const [other, setOther] = useState<string>("");
  const [thisRunIs, setThisRunIs] = useState<"variant" | "baseline">("variant");
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: React.FormEvent, dialog: { close: () => void }, runs: ComparableRuns, selected: string) => {
    e.preventDefault();
    if (!selected) return;
    setError(null);
    setBusy(true);
    try {
      const [baseline, variant] = thisRunIs === "variant" ? [selected, runId] : [runId, selected];
      const result = await createComparisonAction(workspaceId, {
        suite_id: runs.suite_id,
        input: { baseline_run_id: baseline, variant_run_id: variant, ...(name.trim() ? { name: name.trim() } : {}) },
      });
      if (!result.ok) {
        setError([result.error, ...result.issues.map((i) => i.message)].filter((m, i, a) => a.indexOf(m) === i).join(": "));
        return;
      }
      dialog.close();
      router.push(comparisonHref(workspaceId, result.data.id));
    } finally {
      setBusy(false);
    }
  };

  return (
    <LaunchDialog
      label="Compare with…"
      variant="secondary"
      size="sm"
      title="Compare with another run"
      description="Pairs the two runs' results by test case and compares pass rate, latency and tokens. Nothing is executed again."
      onOpen={() => setError(null)}
      options={{
        queryKey: ["comparable-runs", workspaceId, runId],
        action: () => comparableRunsAction(workspaceId, { run_id: runId }),
        what: "The suite's completed runs",
        loading: "Loading the suite's completed runs…",
        staleTime: 10_000,
      }}
    >
      {(runs) => {
        const list = runs.runs;
        // The default is the suite's previous history run; an experiment is only ever chosen by hand.
        const selected = other || runs.default_run_id || "";
        return (
          <LaunchForm
            onSubmit={(e, dialog) => submit(e, dialog, runs, selected)}
            pending={busy}
            error={error}
            submitLabel="Compare runs"
            pendingLabel="Comparing…"
            submitDisabled={!selected}
          >
            {list.length === 0 ? (
              <p className="text-sm text-slate-600">This suite has no other completed run to compare with.</p>
            ) : (
              <>
                <fieldset className="space-y-1">
                  <legend className="text-sm font-medium text-slate-700">Other run</legend>
                  <div className="max-h-56 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-2">
                    {list.map((r) => (
                      <label key={r.id} className="flex items-center gap-2 text-sm">
                        <input type="radio" name={`${uid}-run`} value={r.id} checked={selected === r.id} onChange={() => setOther(r.id)} />
                        <span>
                          {runLabel(r)}
                          {r.experiment && <span className="text-slate-500"> (experiment: {r.experiment})</span>} ·{" "}
                          {formatDateTime(r.completed_at ?? r.created_at)} · {formatPercent(r.pass_rate)} of {r.total_cases} cases
                        </span>
                      </label>
                    ))}
                  </div>
                </fieldset>
                <fieldset className="flex gap-4 text-sm">
                  <legend className="mb-1 text-sm font-medium text-slate-700">This run is the</legend>
                  <label className="inline-flex items-center gap-1.5">
                    <input type="radio" name={`${uid}-role`} checked={thisRunIs === "variant"} onChange={() => setThisRunIs("variant")} />
                    Variant (B)
                  </label>
                  <label className="inline-flex items-center gap-1.5">
                    <input type="radio" name={`${uid}-role`} checked={thisRunIs === "baseline"} onChange={() => setThisRunIs("baseline")} />
                    Baseline (A)
                  </label>
                </fieldset>
                <InputField id={`${uid}-name`} label="Name (optional)" value={name} onChange={(e) => setName(e.target.value)} />
              </>
            )}
          </LaunchForm>
        );
      }}
    </LaunchDialog>
  );
}
