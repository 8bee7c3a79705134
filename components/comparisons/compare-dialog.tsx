"use client";
import { useEffect, useId, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { compareOptionsAction, createComparisonAction, type CompareOptions } from "@/lib/comparisons/actions";
import { COMPARISON_ORDERINGS, MAX_REPETITIONS, MAX_RESET_WINDOW_MS } from "@/lib/comparisons/schemas";
import { applyServerIssues } from "@/components/forms/server-issues";
import { Field, InputField, Options, Select } from "@/components/ui/field";
import { LaunchForm } from "@/components/ui/launch-dialog";
import { suiteLaunchButton, type SuiteTarget } from "@/components/suites/suite-launch-dialog";
import { NumberField } from "@/components/ui/number-field";
import { ConcurrencyField } from "@/components/runs/concurrency-field";
import { CaseFilterFields, useCaseCount, type CaseFilter } from "@/components/runs/case-filter-fields";
import { ORDERING_LABELS } from "./format";
import { ArmFields } from "./arm-fields";
import { ARMS, FIELDS, atFields, defaults, differences, toInput, type FormValues, type Issue } from "./compare-form-model";

/**
 * "Compare": a dialog that builds the two arms of an A/B comparison side by side (agent, model
 * configuration, system prompt with a diff marker, temperature, max tokens, variables), the
 * ordering, repetitions, concurrency and case filters, shows the case count and the estimated
 * agent calls, then creates the comparison and opens its page. Each arm's variables are the Run
 * dialog's typed inputs. The server validates (executeComparisonInput); its issues, and the
 * form's own (a number input holding no number), are shown at their fields and the first one is focused.
 */

export const CompareButton = suiteLaunchButton({
  label: "Compare",
  title: "New A/B comparison",
  description: "Runs the selected cases under two configurations and compares pass rate, latency and tokens pair by pair.",
  width: "xl",
  options: { load: compareOptionsAction, what: "The comparison options", loading: "Loading agents and model configurations…" },
  form: CompareForm,
});

/** The retry policy's inputs (agent calls); the backoff factor takes halves. */
const RETRY_FIELDS = [
  { name: "retry.max_attempts", label: "Max attempts", step: undefined },
  { name: "retry.initial_delay_ms", label: "Initial delay (ms)", step: undefined },
  { name: "retry.backoff_factor", label: "Backoff factor", step: "0.5" },
  { name: "retry.timeout_ms", label: "Timeout (ms)", step: undefined },
] as const;

function CompareForm({ workspaceId, suiteId, options }: SuiteTarget & { options: CompareOptions }) {
  const router = useRouter();
  const uid = useId();
  const id = (name: string) => `${uid}-${name.replace(/\./g, "-")}`;
  const [formError, setFormError] = useState<string | null>(null);
  const [otherIssues, setOtherIssues] = useState<Issue[]>([]);
  const form = useForm<FormValues>({ defaultValues: defaults(options) });
  const { errors, isSubmitting } = form.formState;
  const values = form.watch();

  const filter: CaseFilter = { tags: values.tags, tag_match: values.tag_match, difficulty: values.difficulty };
  const count = useCaseCount(workspaceId, suiteId, filter);
  const repetitions = Number(values.repetitions);
  const validRepetitions = Number.isInteger(repetitions) && repetitions >= 1 && repetitions <= MAX_REPETITIONS;
  const differ = differences(values, options);

  const errorAt = (path: string): string | undefined => {
    const parts = path.split(".");
    let node: unknown = errors;
    for (const p of parts) node = (node as Record<string, unknown> | undefined)?.[p];
    return (node as { message?: string } | undefined)?.message;
  };

  /** A whole-number input bound to the form field `name`, with its id and its error. */
  const wholeNumber = (
    name: "reset_window_ms" | "seed" | "repetitions",
    props: { label: string; hint: string; min: number; max?: number },
  ) => <NumberField id={id(name)} error={errorAt(name)} inputMode="numeric" {...props} {...form.register(name)} />;

  // A refused attempt takes the keyboard to its first invalid field once the form is enabled again.
  const formElement = useRef<HTMLFormElement | null>(null);
  const focusInvalid = useRef(false);
  useEffect(() => {
    if (isSubmitting || !focusInvalid.current) return;
    focusInvalid.current = false;
    formElement.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [isSubmitting]);

  const onSubmit = (e: React.FormEvent<HTMLFormElement>) => {
    formElement.current = e.currentTarget;
    return form.handleSubmit(async (v) => {
      setFormError(null);
      setOtherIssues([]);
      form.clearErrors();
      const { input, issues } = toInput(v, options);
      if (issues.length > 0) {
        applyServerIssues(form.setError, issues);
        setFormError("Please fix the highlighted fields");
        focusInvalid.current = true;
        return;
      }
      const result = await createComparisonAction(workspaceId, { suite_id: suiteId, input });
      if (!result.ok) {
        const rest = applyServerIssues(form.setError, atFields(result.issues), FIELDS);
        setFormError(result.error);
        setOtherIssues(rest);
        focusInvalid.current = true;
        return;
      }
      router.push(`/w/${workspaceId}/comparisons/${result.data.id}`);
    })(e);
  };

  const setFilter = (next: CaseFilter) => {
    form.setValue("tags", next.tags, { shouldDirty: true });
    form.setValue("tag_match", next.tag_match, { shouldDirty: true });
    form.setValue("difficulty", next.difficulty, { shouldDirty: true });
  };

  return (
    <LaunchForm
      onSubmit={onSubmit}
      pending={isSubmitting}
      error={formError}
      issues={otherIssues.map((i) => `${i.path ? `${i.path}: ` : ""}${i.message}`)}
      submitLabel="Start comparison"
    >
      <div className="grid gap-4 md:grid-cols-2">
        <InputField
          id={id("name")}
          label="Name (optional)"
          error={errorAt("name")}
          {...form.register("name")}
          placeholder="e.g. Shorter prompt vs current"
        />
        <InputField id={id("notes")} label="Notes (optional)" error={errorAt("notes")} {...form.register("notes")} />
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
              <Options values={COMPARISON_ORDERINGS} labels={ORDERING_LABELS} />
            </Select>
          </Field>
          {values.ordering === "sequential" &&
            wholeNumber("reset_window_ms", {
              label: "Reset window (ms)",
              hint: `Pause between the arms, 0–${MAX_RESET_WINDOW_MS}`,
              min: 0,
              max: MAX_RESET_WINDOW_MS,
            })}
          {values.ordering === "randomized" && wholeNumber("seed", { label: "Seed (optional)", hint: "Same seed → same orders", min: 0 })}
        </div>
        <div className="grid gap-4 md:grid-cols-4">
          {wholeNumber("repetitions", {
            label: "Repetitions",
            hint: `Per case and arm, 1–${MAX_REPETITIONS}`,
            min: 1,
            max: MAX_REPETITIONS,
          })}
          <ConcurrencyField unit="Pairs" id={id("concurrency")} error={errorAt("concurrency")} {...form.register("concurrency")} />
        </div>
        <details className="text-sm">
          <summary className="cursor-pointer text-slate-700">Retry policy (agent calls)</summary>
          <div className="mt-3 grid gap-4 md:grid-cols-4">
            {RETRY_FIELDS.map((f) => (
              <NumberField
                key={f.name}
                id={id(f.name)}
                label={f.label}
                error={errorAt(f.name)}
                inputMode={f.step ? "decimal" : "numeric"}
                step={f.step}
                {...form.register(f.name)}
              />
            ))}
          </div>
        </details>
      </fieldset>

      <fieldset className="space-y-3 rounded-md border border-slate-200 p-4">
        <legend className="px-1 text-sm font-semibold text-slate-800">Cases</legend>
        <CaseFilterFields
          id={uid}
          tags={options.tags}
          value={filter}
          onChange={setFilter}
          errors={{ tags: errorAt("tags") ?? errorAt("case_ids"), difficulty: errorAt("difficulty") }}
        />
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
    </LaunchForm>
  );
}
