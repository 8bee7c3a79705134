"use client";
import { useState } from "react";
import { Controller, useFieldArray, type UseFormReturn } from "react-hook-form";
import { Field, InputField, NamedOptions, Options, Select } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { FormCheckbox } from "@/components/forms/form-checkbox";
import { FormSelect, FormTextarea } from "@/components/forms/form-input";
import { FormNumber } from "@/components/forms/form-number";
// Directly from the schemas module: `@/lib/evaluation` pulls node:crypto into client bundles.
import {
  BUILT_IN_METRICS,
  CUSTOM_METRIC,
  DEFAULT_METRIC_SCALE,
  DEFAULT_METRIC_TIMEOUT_MS,
  MAX_METRICS_PER_SUITE,
  isBuiltInMetric,
  type MetricConfigInput,
} from "@/lib/evaluation/schemas";
import type { SuiteData, SuiteInput } from "@/lib/suites/schemas";
import type { ModelConfigOption } from "@/lib/suites/dto";

type Form = UseFormReturn<SuiteInput, unknown, SuiteData>;
type Props = { form: Form; modelConfigs: ModelConfigOption[]; readOnly?: boolean };

const METRIC_LABELS: Record<string, string> = {
  groundedness: "Groundedness",
  relevance: "Relevance",
  coherence: "Coherence",
  fluency: "Fluency",
  correctness: "Correctness",
  [CUSTOM_METRIC]: "Custom (own prompt)",
};

/** Empty inputs mean "not set" (null); anything else is parsed as a number and checked by zod. */
const numberOrNull = (v: unknown) => (v === "" || v === null || v === undefined ? null : Number(v));
const numberOrDefault = (v: unknown) => (v === "" || v === null || v === undefined ? undefined : Number(v));

export function newMetricRow(used: string[]): MetricConfigInput {
  const metric = BUILT_IN_METRICS.find((m) => !used.includes(m)) ?? CUSTOM_METRIC;
  return {
    metric,
    threshold: 4,
    enabled: true,
    scale: DEFAULT_METRIC_SCALE,
    model: null,
    fail_on_error: false,
    retry_on_failure: null,
    timeout_ms: null,
    custom_prompt: "",
  };
}

/** The suite's metrics (the execution model): one row per metric, errors at each field. */
export function MetricFields({ form, modelConfigs, readOnly }: Props) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: "metrics" });
  const listError = (form.formState.errors.metrics as { message?: string; root?: { message?: string } } | undefined) ?? undefined;
  return (
    <section className="space-y-3 border-t border-slate-200 pt-5">
      <div>
        <h2 className="text-sm font-semibold text-slate-900">Metrics</h2>
        <p className="text-xs text-slate-500">
          Every case is scored on each enabled metric by the judge model (or the metric&apos;s model override) on a 1–scale rubric, and the
          threshold is on the same scale: 4 on a 1–5 scale means 4 or better. Results also show both normalised to 0..1 as (score − 1) /
          (scale − 1). A metric without a threshold is informational. A case fails when a metric is below its threshold. A test case can
          pick which of these metrics it is scored on (its Evaluations field).
        </p>
      </div>
      {(listError?.message ?? listError?.root?.message) && (
        <p className="text-xs text-red-600" data-testid="error-metrics">
          {listError?.message ?? listError?.root?.message}
        </p>
      )}
      {fields.length === 0 && (
        <p className="text-sm text-slate-500">No metrics: cases pass on their checks, tool calls and outcomes alone.</p>
      )}
      {fields.map((f, i) => (
        <MetricRow
          key={f.id}
          form={form}
          index={i}
          initialMetric={f.metric ?? ""}
          modelConfigs={modelConfigs}
          readOnly={readOnly}
          onRemove={() => remove(i)}
        />
      ))}
      {!readOnly && (
        <Button
          type="button"
          variant="secondary"
          disabled={fields.length >= MAX_METRICS_PER_SUITE}
          onClick={() => append(newMetricRow((form.getValues("metrics") ?? []).map((m) => m.metric ?? "")))}
        >
          Add metric
        </Button>
      )}
    </section>
  );
}

type RowProps = {
  form: Form;
  index: number;
  initialMetric: string;
  modelConfigs: ModelConfigOption[];
  readOnly?: boolean;
  onRemove: () => void;
};

function MetricRow({ form, index, initialMetric, modelConfigs, readOnly, onRemove }: RowProps) {
  const [custom, setCustom] = useState(() => !isBuiltInMetric(initialMetric));
  const err = form.formState.errors.metrics?.[index];
  const id = (field: string) => `metrics.${index}.${field}`;
  const model = form.watch(`metrics.${index}.model`);
  const scale = form.watch(`metrics.${index}.scale`);
  // A stored override whose configuration is gone stays visible so the server's error makes sense.
  const options =
    model && !modelConfigs.some((m) => m.id === model) ? [...modelConfigs, { id: model, name: "Unavailable configuration" }] : modelConfigs;

  return (
    <div data-testid="metric-row" className="space-y-4 rounded-md border border-slate-200 p-4">
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-medium text-slate-800">Metric {index + 1}</h3>
        {!readOnly && (
          <Button type="button" variant="secondary" size="sm" aria-label={`Remove metric ${index + 1}`} onClick={onRemove}>
            Remove
          </Button>
        )}
      </div>
      <Controller
        control={form.control}
        name={`metrics.${index}.metric`}
        render={({ field }) => (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id={custom ? id("kind") : id("metric")} label="Metric" error={custom ? undefined : err?.metric?.message}>
              <Select
                id={custom ? id("kind") : id("metric")}
                value={custom ? CUSTOM_METRIC : (field.value ?? "")}
                aria-invalid={!custom && !!err?.metric}
                onChange={(e) => {
                  const v = e.target.value;
                  setCustom(v === CUSTOM_METRIC);
                  field.onChange(v === CUSTOM_METRIC ? (isBuiltInMetric(field.value ?? "") ? CUSTOM_METRIC : field.value) : v);
                }}
              >
                <Options values={[...BUILT_IN_METRICS, CUSTOM_METRIC]} labels={METRIC_LABELS} />
              </Select>
            </Field>
            {custom && (
              <InputField
                id={id("metric")}
                label="Metric name"
                required
                hint="Letters, digits, - and _; results are reported under this name"
                error={err?.metric?.message}
                value={field.value ?? ""}
                onChange={(e) => field.onChange(e.target.value)}
                onBlur={field.onBlur}
              />
            )}
          </div>
        )}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <FormNumber
          form={form}
          name={`metrics.${index}.threshold`}
          label="Threshold (on the scale)"
          hint="Empty = informational"
          min={0}
          max={Number(scale) >= 2 ? Number(scale) : 100}
          step="any"
          rules={{ setValueAs: numberOrNull }}
        />
        <FormNumber
          form={form}
          name={`metrics.${index}.scale`}
          label="Scale"
          hint={`Judge scores 1–${Number(scale) >= 2 ? scale : "scale"}`}
          min={2}
          max={100}
          step={1}
          rules={{ setValueAs: numberOrDefault }}
        />
        <FormSelect
          form={form}
          name={`metrics.${index}.model`}
          label="Model override"
          rules={{ setValueAs: (v) => (v === "" || v == null ? null : v) }}
        >
          <NamedOptions items={options} none="Same as judge" />
        </FormSelect>
        <FormSelect
          form={form}
          name={`metrics.${index}.retry_on_failure`}
          label="Retry on failure"
          hint="Extra attempts when evaluation fails"
          rules={{ setValueAs: numberOrNull }}
        >
          <Options values={[1, 2, 3]} none="No retries" />
        </FormSelect>
        <FormNumber
          form={form}
          name={`metrics.${index}.timeout_ms`}
          label="Timeout (ms)"
          hint={`Per judge call; default ${DEFAULT_METRIC_TIMEOUT_MS}`}
          min={1}
          step={1000}
          placeholder={String(DEFAULT_METRIC_TIMEOUT_MS)}
          rules={{ setValueAs: numberOrNull }}
        />
        <div className="space-y-2 pt-6">
          <FormCheckbox form={form} name={`metrics.${index}.enabled`} id={id("enabled")} label="Enabled" />
          <FormCheckbox form={form} name={`metrics.${index}.fail_on_error`} id={id("fail_on_error")} label="Fail on error" />
        </div>
      </div>
      <FormTextarea
        form={form}
        name={`metrics.${index}.custom_prompt`}
        label="Custom prompt"
        required={custom}
        hint={
          custom
            ? "How to score; may use {{conversation}}, {{question}}, {{response}}, {{ground_truth}}, {{context}}"
            : "Optional: replaces the built-in rubric; may use {{conversation}}, {{response}}, {{ground_truth}}, …"
        }
        rows={custom ? 4 : 2}
      />
    </div>
  );
}
