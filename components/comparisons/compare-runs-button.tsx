"use client";
import { useId, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { comparableRunsAction, createComparisonAction } from "@/lib/comparisons/actions";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input } from "@/components/ui/field";
import { formatDateTime, formatPercent } from "@/components/runs/format";
import { runLabel } from "@/lib/runs/dto";
import { comparisonHref } from "./paths";

/**
 * "Compare with…" on a completed run: pick another completed run of the same suite and whether
 * this run is the baseline or the variant; creates a compare-two-runs comparison (no execution,
 * pairs matched by test case) and opens it.
 */
export function CompareRunsButton({ workspaceId, runId }: { workspaceId: string; runId: string }) {
  const router = useRouter();
  const ref = useRef<HTMLDialogElement>(null);
  const uid = useId();
  const [opened, setOpened] = useState(false);
  const [other, setOther] = useState<string>("");
  const [thisRunIs, setThisRunIs] = useState<"variant" | "baseline">("variant");
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const runs = useQuery({
    queryKey: ["comparable-runs", workspaceId, runId],
    queryFn: async () => {
      const result = await comparableRunsAction(workspaceId, { run_id: runId });
      if (!result.ok) throw new Error(result.error);
      return result.data;
    },
    enabled: opened,
    staleTime: 10_000,
  });
  const list = runs.data?.runs ?? [];
  // The default is the suite's previous history run; an experiment is only ever chosen by hand.
  const selected = other || runs.data?.default_run_id || "";

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!runs.data || !selected) return;
    setError(null);
    setBusy(true);
    try {
      const [baseline, variant] = thisRunIs === "variant" ? [selected, runId] : [runId, selected];
      const result = await createComparisonAction(workspaceId, {
        suite_id: runs.data.suite_id,
        input: { baseline_run_id: baseline, variant_run_id: variant, ...(name.trim() ? { name: name.trim() } : {}) },
      });
      if (!result.ok) {
        setError([result.error, ...result.issues.map((i) => i.message)].filter((m, i, a) => a.indexOf(m) === i).join(": "));
        return;
      }
      ref.current?.close();
      router.push(comparisonHref(workspaceId, result.data.id));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          setOpened(true);
          setError(null);
          ref.current?.showModal();
        }}
      >
        Compare with…
      </Button>
      <dialog
        ref={ref}
        aria-labelledby={`${uid}-title`}
        className="m-auto w-full max-w-lg rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <form onSubmit={submit} className="space-y-4 p-5">
          <div>
            <h2 id={`${uid}-title`} className="text-base font-semibold">
              Compare with another run
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              Pairs the two runs&apos; results by test case and compares pass rate, latency and tokens. Nothing is executed again.
            </p>
          </div>
          {runs.isError ? (
            <FormError message={runs.error.message} />
          ) : !runs.data ? (
            <p className="text-sm text-slate-600" aria-busy="true">
              Loading the suite&apos;s completed runs…
            </p>
          ) : list.length === 0 ? (
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
              <Field id={`${uid}-name`} label="Name (optional)">
                <Input id={`${uid}-name`} value={name} onChange={(e) => setName(e.target.value)} />
              </Field>
            </>
          )}
          <FormError message={error} />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => ref.current?.close()} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy || !selected}>
              {busy ? "Comparing…" : "Compare runs"}
            </Button>
          </div>
        </form>
      </dialog>
    </>
  );
}
