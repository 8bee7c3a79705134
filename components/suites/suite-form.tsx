"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Field, FormError, Input, NamedOptions, Options, Select } from "@/components/ui/field";
import { NumberField } from "@/components/ui/number-field";
import { SubmitButton } from "@/components/ui/submit-button";
import { applyServerIssues, formErrorText } from "@/components/forms/server-issues";
import { MAX_TRIALS } from "@/lib/runs/schemas";
import { SCHEDULE_TYPES, suiteInput, type SuiteData, type SuiteInput } from "@/lib/suites/schemas";
import { createSuiteAction, updateSuiteAction } from "@/lib/suites/actions";
import type { AgentOption, ModelConfigOption, SuiteDto } from "@/lib/suites/dto";
import { DAYS_OF_WEEK, SCHEDULE_LABELS } from "./format";
import { VariableFields } from "./variable-fields";
import { MetricFields } from "./metric-fields";
import { FormInput, FormSelect, FormTextarea } from "@/components/forms/form-input";
import { FormCheckbox } from "@/components/forms/form-checkbox";
import { FormNumber } from "@/components/forms/form-number";
import { initialValues } from "./suite-form-values";
import { ReviewFields } from "./review-fields";

type Props = {
  workspaceId: string;
  agents: AgentOption[];
  modelConfigs: ModelConfigOption[];
  /** Edit mode when given. */
  suite?: SuiteDto | null;
  /** Preselected agent in create mode. */
  defaultAgentId?: string | null;
  readOnly?: boolean;
};

const emptyToNull = (v: unknown) => (v === "" || v === undefined ? null : v);
/** Number inputs that may stay empty (null); anything else is a number for zod to check. */
const emptyToNullNumber = (v: unknown) => (v === "" || v === undefined || v === null ? null : Number(v));
/** Hourly schedules keep only minutes: "7" → "00:07" (invalid input stays invalid for zod to report). */
const hourlyTime = (v: string) => (v === "" ? "" : /^\d{1,2}$/.test(v) && Number(v) < 60 ? `00:${v.padStart(2, "0")}` : `00:${v}`);

/** Create or edit a suite; validates with the same zod schema as the server and shows errors at the fields. */
export function SuiteForm({ workspaceId, agents, modelConfigs, suite, defaultAgentId, readOnly }: Props) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const form = useForm<SuiteInput, unknown, SuiteData>({
    resolver: zodResolver(suiteInput),
    defaultValues: initialValues(suite, defaultAgentId),
  });
  const { errors, isSubmitting } = form.formState;
  const scheduleType = form.watch("schedule_type");
  const agentId = form.watch("agent_id");
  const agent = agents.find((a) => a.id === agentId);
  const variableErrors = Object.fromEntries(
    Object.entries((errors.variables ?? {}) as Record<string, { message?: string } | undefined>).map(([k, v]) => [k, v?.message]),
  );

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setSaved(false);
    const result = suite
      ? await updateSuiteAction(workspaceId, { id: suite.id, patch: values })
      : await createSuiteAction(workspaceId, values);
    if (!result.ok) {
      const rest = applyServerIssues(form.setError, result.issues);
      setFormError(formErrorText(result.error, rest));
      return;
    }
    if (suite) {
      setSaved(true);
      form.reset(initialValues(result.data, null));
      router.refresh();
    } else {
      router.push(`/w/${workspaceId}/suites/${result.data.id}`);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-3xl space-y-6">
      <FormError message={formError} />
      <fieldset disabled={readOnly || isSubmitting} className="space-y-6">
        <section className="space-y-4">
          {suite ? (
            <Field id="agent_id" label="Agent" hint="A suite belongs to one agent; it cannot move to another.">
              <Input id="agent_id" value={agents.find((a) => a.id === suite.agent_id)?.name ?? ""} readOnly />
            </Field>
          ) : (
            <FormSelect form={form} name="agent_id" label="Agent" required rules={{ onChange: () => form.setValue("variables", {}) }}>
              <NamedOptions items={agents} none="Choose an agent…" />
            </FormSelect>
          )}
          <FormInput form={form} name="name" label="Name" required hint="Unique among this agent's suites" />
          <FormTextarea form={form} name="description" label="Description" rows={3} />
        </section>

        <section className="space-y-4 border-t border-slate-200 pt-5">
          <div>
            <h2 className="text-sm font-semibold text-slate-900">Schedule and judging</h2>
            <p className="text-xs text-slate-500">
              Scheduled runs start at these times in the workspace&apos;s time zone (Settings → General) with the suite&apos;s active cases.
            </p>
          </div>
          <div className="grid gap-4 sm:grid-cols-3">
            <Field id="schedule_type" label="Schedule" error={errors.schedule_type?.message}>
              <Select id="schedule_type" {...form.register("schedule_type")}>
                <Options values={SCHEDULE_TYPES} labels={SCHEDULE_LABELS} />
              </Select>
            </Field>
            {scheduleType === "hourly" && (
              <Controller
                control={form.control}
                name="schedule_time"
                render={({ field }) => (
                  <NumberField
                    id="schedule_minute"
                    label="Minute past the hour"
                    hint="0–59; empty = on the hour"
                    error={errors.schedule_time && "Use a whole minute from 0 to 59"}
                    min={0}
                    max={59}
                    step={1}
                    value={field.value ? String(Number(field.value.slice(3))) : ""}
                    onChange={(e) => field.onChange(hourlyTime(e.target.value))}
                    onBlur={field.onBlur}
                  />
                )}
              />
            )}
            {(scheduleType === "daily" || scheduleType === "weekly") && (
              <FormInput form={form} name="schedule_time" label="Time (HH:MM)" required hint="24-hour, workspace time zone" type="time" />
            )}
            {scheduleType === "weekly" && (
              <FormSelect
                form={form}
                name="schedule_day_of_week"
                label="Day of week"
                required
                rules={{ setValueAs: (v) => (v === "" || v === null ? null : Number(v)) }}
              >
                <option value="">Choose a day…</option>
                {DAYS_OF_WEEK.map((d, i) => (
                  <option key={d} value={i}>
                    {d}
                  </option>
                ))}
              </FormSelect>
            )}
          </div>
          <FormSelect
            form={form}
            name="llm_judge_model_config_id"
            label="Judge model configuration"
            hint="Evaluates expected outcomes and llm_judge checks"
            rules={{ setValueAs: emptyToNull }}
          >
            <NamedOptions items={modelConfigs} none="None" />
          </FormSelect>
          <FormSelect
            form={form}
            name="simulator_model_config_id"
            label="Simulator model configuration"
            hint="Plays the user in multi-turn (persona) cases"
            rules={{ setValueAs: emptyToNull }}
          >
            <NamedOptions items={modelConfigs} none="Same as judge" />
          </FormSelect>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormCheckbox form={form} name="alert_on_regression" label="Alert on regression" />
            <FormNumber
              form={form}
              name="alert_threshold_percent"
              label="Alert threshold (%)"
              hint="Percentage points: alert when a run's pass rate is at least this many points below its baseline's (90 % → 79 % is 11 points)"
              min={1}
              max={100}
              step={1}
            />
            <FormNumber
              form={form}
              name="hard_weight"
              label="Hard case weight"
              hint="How many times a hard case counts in the difficulty-weighted pass rate (normal cases count once)"
              min={1}
              max={10}
              step={0.5}
            />
            <FormCheckbox form={form} name="is_enabled" label="Enabled" />
            <FormNumber
              form={form}
              name="default_trials"
              label="Default trials"
              hint={`Times each case runs (1–${MAX_TRIALS}): used by schedules and by runs that do not say`}
              min={1}
              max={MAX_TRIALS}
              step={1}
            />
          </div>
        </section>

        <section className="space-y-3 border-t border-slate-200 pt-5">
          <div>
            <h2 className="text-sm font-semibold text-slate-900">Retention</h2>
            <p className="text-xs text-slate-500">
              Leave empty to use the instance settings. Pinned baselines, runs of open alerts and of starred comparisons are always kept.
            </p>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormNumber
              form={form}
              name="retention_days"
              label="Keep runs for (days)"
              hint="0: age alone keeps no run"
              min={0}
              step={1}
              rules={{ setValueAs: emptyToNullNumber }}
            />
            <FormNumber
              form={form}
              name="retention_runs"
              label="Always keep the newest (runs)"
              hint="Completed runs kept whatever their age"
              min={0}
              step={1}
              rules={{ setValueAs: emptyToNullNumber }}
            />
          </div>
        </section>

        <ReviewFields form={form} />

        <MetricFields form={form} modelConfigs={modelConfigs} readOnly={readOnly} />

        <section className="space-y-3 border-t border-slate-200 pt-5">
          <div>
            <h2 className="text-sm font-semibold text-slate-900">Variables</h2>
            <p className="text-xs text-slate-500">Suite values override the agent&apos;s defaults; a run can still override them.</p>
          </div>
          {agent ? (
            <Controller
              control={form.control}
              name="variables"
              render={({ field }) => (
                <VariableFields
                  definitions={agent.variables_schema}
                  value={field.value ?? {}}
                  onChange={field.onChange}
                  errors={variableErrors}
                  disabled={readOnly}
                />
              )}
            />
          ) : (
            <p className="text-sm text-slate-500">Choose an agent to set its variables.</p>
          )}
        </section>
      </fieldset>

      {!readOnly && (
        <div className="flex items-center gap-3">
          <SubmitButton pending={isSubmitting}>{suite ? "Save" : "Create suite"}</SubmitButton>
          {saved && !form.formState.isDirty && (
            <span role="status" className="text-sm text-green-700">
              Saved
            </span>
          )}
        </div>
      )}
    </form>
  );
}
