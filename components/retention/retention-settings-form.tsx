"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { retentionSettingsForm, RETENTION_DEFAULTS } from "@/lib/retention/schemas";
import { updateRetentionSettingsAction } from "@/lib/retention/actions";
import type { RetentionSettings } from "@/lib/retention/dto";
import { Field, FormError, Input } from "@/components/ui/field";
import { Badge } from "@/components/ui/card";
import { SubmitButton } from "@/components/ui/submit-button";
import { applyServerIssues } from "@/components/forms/server-issues";
import { SOURCE_LABELS } from "./format";

type Values = z.input<typeof retentionSettingsForm>;
type Parsed = z.output<typeof retentionSettingsForm>;

/** The form shows database values only: an empty field means "use the environment or the default". */
function initial(s: RetentionSettings): Values {
  const own = <T,>(v: { value: T; source: string }) => (v.source === "database" ? String(v.value) : "");
  return { cleanup_time: own(s.cleanup_time), days: own(s.days), runs: own(s.runs), traffic_days: own(s.traffic_days) };
}

function Source({ setting }: { setting: { value: string | number; source: keyof typeof SOURCE_LABELS } }) {
  return (
    <span className="flex items-center gap-2 text-xs text-slate-600">
      In effect: <span className="font-medium text-slate-900">{setting.value}</span>
      <Badge tone={setting.source === "database" ? "indigo" : "slate"}>{SOURCE_LABELS[setting.source]}</Badge>
    </span>
  );
}

/** Each setting: empty falls back to its environment variable, then to the built-in default. */
const FIELDS: { name: keyof Values; label: string; hint: string; placeholder?: string; inputMode?: "numeric" }[] = [
  {
    name: "cleanup_time",
    label: "Nightly cleanup time (HH:MM, UTC)",
    hint: `Empty: TEST_SUITES_RETENTION_CLEANUP_TIME or ${RETENTION_DEFAULTS.cleanup_time}`,
    placeholder: "02:00",
  },
  {
    name: "days",
    label: "Keep runs for (days)",
    hint: `Runs younger than this are kept (at least 1). Empty: TEST_SUITES_RETENTION_DAYS or ${RETENTION_DEFAULTS.days}`,
    inputMode: "numeric",
  },
  {
    name: "runs",
    label: "Always keep the newest completed runs per suite",
    hint: `Kept whatever their age (at least 1). Empty: TEST_SUITES_RETENTION_RUNS or ${RETENTION_DEFAULTS.runs}`,
    inputMode: "numeric",
  },
  {
    name: "traffic_days",
    label: "Keep traffic conversations for (days)",
    hint: `Conversations received over OpenTelemetry, counted from their last span (at least 1). Empty: TRAFFIC_RETENTION_DAYS or ${RETENTION_DEFAULTS.traffic_days}`,
    inputMode: "numeric",
  },
];

export function RetentionSettingsForm({ workspaceId, settings }: { workspaceId: string; settings: RetentionSettings }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const form = useForm<Values, unknown, Parsed>({ resolver: zodResolver(retentionSettingsForm), defaultValues: initial(settings) });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setSaved(false);
    const result = await updateRetentionSettingsAction(workspaceId, {
      cleanup_time: values.cleanup_time ?? "",
      days: values.days === null ? "" : String(values.days),
      runs: values.runs === null ? "" : String(values.runs),
      traffic_days: values.traffic_days === null ? "" : String(values.traffic_days),
    });
    if (!result.ok) {
      applyServerIssues(form.setError, result.issues);
      setFormError(result.error);
      return;
    }
    form.reset(initial(result.data));
    setSaved(true);
    router.refresh();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-xl space-y-5">
      <FormError message={formError} />
      {FIELDS.map(({ name, label, hint, ...input }) => (
        <Field key={name} id={name} label={label} hint={hint} error={errors[name]?.message}>
          <Input id={name} className="w-32" aria-invalid={!!errors[name]} {...input} {...form.register(name)} />
          <Source setting={settings[name]} />
        </Field>
      ))}
      <div className="flex items-center gap-3">
        <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
          Save retention settings
        </SubmitButton>
        {saved && (
          <span role="status" className="text-sm text-green-700">
            Retention settings saved
          </span>
        )}
      </div>
    </form>
  );
}
