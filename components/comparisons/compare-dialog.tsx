"use client";
import { useId, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { compareOptionsAction, countComparisonCasesAction, createComparisonAction, type CompareOptions } from "@/lib/comparisons/actions";
import { COMPARISON_ORDERINGS, MAX_REPETITIONS, MAX_RESET_WINDOW_MS } from "@/lib/comparisons/schemas";
import { MAX_RUN_CONCURRENCY } from "@/lib/runs/schemas";
import { DIFFICULTIES } from "@/lib/test-cases/schemas";
import { applyServerIssues } from "@/components/forms/server-issues";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input, Select } from "@/components/ui/field";
import { ORDERING_LABELS } from "./format";
import { ArmFields } from "./arm-fields";
import { ARMS, FIELDS, atFields, defaults, differences, toInput, type FormValues, type Issue } from "./compare-form-model";

/**
 * "Compare": a dialog that builds the two arms of an A/B comparison side by side (agent, model
 * configuration, system prompt with a diff marker, temperature, max tokens, variables), the
 * ordering, repetitions, concurrency and case filters, shows the case count and the estimated
 * agent calls, then creates the comparison and opens its page. The server validates
 * (executeComparisonInput); its issues are shown at their fields.
 */

export function CompareButton({ workspaceId, suiteId }: { workspaceId: string; suiteId: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [opened, setOpened] = useState(false);
  const uid = useId();
  const options = useQuery({
    queryKey: ["compare-options", workspaceId, suiteId],
    queryFn: async () => {
      const result = await compareOptionsAction(workspaceId, { suite_id: suiteId });
      if (!result.ok) throw new Error(result.error);
      return result.data;
    },
    enabled: opened,
    staleTime: 30_000,
  });

  const open = () => {
    setOpened(true);
    ref.current?.showModal();
  };
  const close = () => ref.current?.close();

  return (
    <>
      <Button variant="secondary" onClick={open}>
        Compare
      </Button>
      <dialog
        ref={ref}
        aria-labelledby={`${uid}-title`}
        className="m-auto max-h-[92vh] w-full max-w-5xl overflow-y-auto rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <div className="p-5">
          <h2 id={`${uid}-title`} className="text-base font-semibold">
            New A/B comparison
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Runs the selected cases under two configurations and compares pass rate, latency and tokens pair by pair.
          </p>
        </div>
        {options.isError ? (
          <div className="space-y-3 px-5 pb-5">
            <FormError message={`The comparison options could not be loaded: ${options.error.message}`} />
            <Button variant="secondary" onClick={close}>
              Close
            </Button>
          </div>
        ) : !options.data ? (
          <p className="px-5 pb-5 text-sm text-slate-600" aria-busy="true">
            Loading agents and model configurations…
          </p>
        ) : (
          <CompareForm workspaceId={workspaceId} suiteId={suiteId} options={options.data} onCancel={close} />
        )}
      </dialog>
    </>
  );
}

function CompareForm({
  workspaceId,
  suiteId,
  options,
  onCancel,
}: {
  workspaceId: string;
  suiteId: string;
  options: CompareOptions;
  onCancel: () => void;
}) {
  const router = useRouter();
  const uid = useId();
  const id = (name: string) => `${uid}-${name.replace(/\./g, "-")}`;
  const [formError, setFormError] = useState<string | null>(null);
  const [otherIssues, setOtherIssues] = useState<Issue[]>([]);
  const form = useForm<FormValues>({ defaultValues: defaults(options) });
  const { errors, isSubmitting } = form.formState;
  const values = form.watch();

  const count = useQuery({
    queryKey: ["compare-case-count", workspaceId, suiteId, values.tags.join("\u0000"), values.tag_match, values.difficulty],
    queryFn: async () => {
      const result = await countComparisonCasesAction(workspaceId, {
        suite_id: suiteId,
        tags: values.tags,
        tag_match: values.tag_match,
        difficulty: (values.difficulty || null) as (typeof DIFFICULTIES)[number] | null,
      });
      if (!result.ok) throw new Error(result.error);
      return result.data;
    },
    staleTime: 10_000,
  });
  const repetitions = Number(values.repetitions);
  const validRepetitions = Number.isInteger(repetitions) && repetitions >= 1 && repetitions <= MAX_REPETITIONS;
  const differ = differences(values, options);

  const errorAt = (path: string): string | undefined => {
    const parts = path.split(".");
    let node: unknown = errors;
    for (const p of parts) node = (node as Record<string, unknown> | undefined)?.[p];
    return (node as { message?: string } | undefined)?.message;
  };

  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    setOtherIssues([]);
    form.clearErrors();
    const { input, issues } = toInput(v, options);
    if (issues.length > 0) {
      applyServerIssues(form.setError, issues);
      setFormError("Please fix the highlighted fields");
      return;
    }
    const result = await createComparisonAction(workspaceId, { suite_id: suiteId, input });
    if (!result.ok) {
      const rest = applyServerIssues(form.setError, atFields(result.issues), FIELDS);
      setFormError(result.error);
      setOtherIssues(rest);
      return;
    }
    router.push(`/w/${workspaceId}/comparisons/${result.data.id}`);
  });

  const toggleTag = (tag: string) =>
    form.setValue("tags", values.tags.includes(tag) ? values.tags.filter((t) => t !== tag) : [...values.tags, tag], { shouldDirty: true });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5 px-5 pb-5">
      <fieldset disabled={isSubmitting} className="space-y-5">
        <div className="grid gap-4 md:grid-cols-2">
          <Field id={id("name")} label="Name (optional)" error={errorAt("name")}>
            <Input
              id={id("name")}
              {...form.register("name")}
              aria-invalid={Boolean(errorAt("name"))}
              placeholder="e.g. Shorter prompt vs current"
            />
          </Field>
          <Field id={id("notes")} label="Notes (optional)" error={errorAt("notes")}>
            <Input id={id("notes")} {...form.register("notes")} aria-invalid={Boolean(errorAt("notes"))} />
          </Field>
        </div>

        <div className="grid gap-4 md:grid-cols-2">
          {ARMS.map((arm) => (
            <ArmFields key={arm.key} arm={arm.key} title={arm.title} form={form} options={options} id={id} errorAt={errorAt} />
          ))}
        </div>
        <p className="text-xs text-slate-600" data-testid="arm-differences">
          {differ.length === 0 ? (
            <span className="text-amber-700">The two arms are identical: change at least one field of the variant.</span>
          ) : (
            <>Variant differs in: {differ.join(", ")}.</>
          )}
        </p>

        <fieldset className="space-y-3 rounded-md border border-slate-200 p-4">
          <legend className="px-1 text-sm font-semibold text-slate-800">Execution</legend>
          <div className="grid gap-4 md:grid-cols-4">
            <Field id={id("ordering")} label="Ordering" error={errorAt("ordering")} className="md:col-span-2">
              <Select id={id("ordering")} {...form.register("ordering")}>
                {COMPARISON_ORDERINGS.map((o) => (
                  <option key={o} value={o}>
                    {ORDERING_LABELS[o]}
                  </option>
                ))}
              </Select>
            </Field>
            {values.ordering === "sequential" && (
              <Field
                id={id("reset_window_ms")}
                label="Reset window (ms)"
                hint={`Pause between the arms, 0–${MAX_RESET_WINDOW_MS}`}
                error={errorAt("reset_window_ms")}
              >
                <Input
                  id={id("reset_window_ms")}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={MAX_RESET_WINDOW_MS}
                  {...form.register("reset_window_ms")}
                  aria-invalid={Boolean(errorAt("reset_window_ms"))}
                />
              </Field>
            )}
            {values.ordering === "randomized" && (
              <Field id={id("seed")} label="Seed (optional)" hint="Same seed → same orders" error={errorAt("seed")}>
                <Input
                  id={id("seed")}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  {...form.register("seed")}
                  aria-invalid={Boolean(errorAt("seed"))}
                />
              </Field>
            )}
          </div>
          <div className="grid gap-4 md:grid-cols-4">
            <Field
              id={id("repetitions")}
              label="Repetitions"
              hint={`Per case and arm, 1–${MAX_REPETITIONS}`}
              error={errorAt("repetitions")}
            >
              <Input
                id={id("repetitions")}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_REPETITIONS}
                {...form.register("repetitions")}
                aria-invalid={Boolean(errorAt("repetitions"))}
              />
            </Field>
            <Field
              id={id("concurrency")}
              label="Concurrency"
              hint={`Pairs at once, 1–${MAX_RUN_CONCURRENCY}`}
              error={errorAt("concurrency")}
            >
              <Input
                id={id("concurrency")}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_RUN_CONCURRENCY}
                {...form.register("concurrency")}
                aria-invalid={Boolean(errorAt("concurrency"))}
              />
            </Field>
          </div>
          <details className="text-sm">
            <summary className="cursor-pointer text-slate-700">Retry policy (agent calls)</summary>
            <div className="mt-3 grid gap-4 md:grid-cols-4">
              <Field id={id("retry.max_attempts")} label="Max attempts" error={errorAt("retry.max_attempts")}>
                <Input id={id("retry.max_attempts")} type="number" inputMode="numeric" {...form.register("retry.max_attempts")} />
              </Field>
              <Field id={id("retry.initial_delay_ms")} label="Initial delay (ms)" error={errorAt("retry.initial_delay_ms")}>
                <Input id={id("retry.initial_delay_ms")} type="number" inputMode="numeric" {...form.register("retry.initial_delay_ms")} />
              </Field>
              <Field id={id("retry.backoff_factor")} label="Backoff factor" error={errorAt("retry.backoff_factor")}>
                <Input
                  id={id("retry.backoff_factor")}
                  type="number"
                  inputMode="decimal"
                  step="0.5"
                  {...form.register("retry.backoff_factor")}
                />
              </Field>
              <Field id={id("retry.timeout_ms")} label="Timeout (ms)" error={errorAt("retry.timeout_ms")}>
                <Input id={id("retry.timeout_ms")} type="number" inputMode="numeric" {...form.register("retry.timeout_ms")} />
              </Field>
            </div>
          </details>
        </fieldset>

        <fieldset className="space-y-3 rounded-md border border-slate-200 p-4">
          <legend className="px-1 text-sm font-semibold text-slate-800">Cases</legend>
          <div role="group" aria-label="Tags" className="space-y-2">
            <p className="text-sm font-medium text-slate-700">Tags</p>
            {options.tags.length === 0 ? (
              <p className="text-xs text-slate-500">This suite&apos;s cases have no tags.</p>
            ) : (
              <div className="flex max-h-28 flex-wrap gap-x-4 gap-y-1 overflow-y-auto rounded-md border border-slate-200 p-2">
                {options.tags.map((tag) => (
                  <label key={tag} className="inline-flex items-center gap-1.5 text-sm">
                    <input type="checkbox" checked={values.tags.includes(tag)} onChange={() => toggleTag(tag)} />
                    {tag}
                  </label>
                ))}
              </div>
            )}
            {values.tags.length > 1 && (
              <div className="flex gap-4 text-sm" role="radiogroup" aria-label="Tag match">
                <label className="inline-flex items-center gap-1.5">
                  <input type="radio" value="any" {...form.register("tag_match")} />
                  Any of these tags
                </label>
                <label className="inline-flex items-center gap-1.5">
                  <input type="radio" value="all" {...form.register("tag_match")} />
                  All of these tags
                </label>
              </div>
            )}
            {(errorAt("tags") ?? errorAt("case_ids")) && <p className="text-xs text-red-600">{errorAt("tags") ?? errorAt("case_ids")}</p>}
          </div>
          <div className="grid gap-4 md:grid-cols-4">
            <Field id={id("difficulty")} label="Difficulty" error={errorAt("difficulty")}>
              <Select id={id("difficulty")} {...form.register("difficulty")}>
                <option value="">Any difficulty</option>
                {DIFFICULTIES.map((d) => (
                  <option key={d} value={d}>
                    {d[0]!.toUpperCase() + d.slice(1)}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-800" data-testid="compare-estimate" aria-live="polite">
            {count.isError ? (
              "The case count could not be loaded."
            ) : count.data === undefined ? (
              "Counting cases…"
            ) : count.data === 0 ? (
              <span className="text-amber-800">No active test case matches this selection.</span>
            ) : (
              <>
                <span className="font-medium">{count.data}</span> active {count.data === 1 ? "case" : "cases"} ×{" "}
                {validRepetitions ? repetitions : "?"} {repetitions === 1 ? "repetition" : "repetitions"} × 2 arms ={" "}
                <span className="font-semibold">{validRepetitions ? (count.data * repetitions * 2).toLocaleString("en-US") : "?"}</span>{" "}
                estimated agent calls
              </>
            )}
          </p>
        </fieldset>

        <FormError message={formError} />
        {otherIssues.length > 0 && (
          <ul className="list-disc pl-5 text-xs text-red-600">
            {otherIssues.map((i) => (
              <li key={`${i.path}-${i.message}`}>
                {i.path ? `${i.path}: ` : ""}
                {i.message}
              </li>
            ))}
          </ul>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit">{isSubmitting ? "Starting…" : "Start comparison"}</Button>
        </div>
      </fieldset>
    </form>
  );
}
