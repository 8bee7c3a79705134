"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { timeZoneNames, workspaceSettingsInput } from "@/lib/workspaces/schemas";
import { updateWorkspaceSettingsAction } from "@/lib/workspaces/settings-actions";
import { Field, FormError, Input } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import { applyServerIssues } from "@/components/forms/server-issues";
import { FormInput } from "@/components/forms/form-input";

type Values = z.input<typeof workspaceSettingsInput>;
type Parsed = z.output<typeof workspaceSettingsInput>;

export function WorkspaceSettingsForm({
  workspace,
  canEdit,
}: {
  workspace: { id: string; name: string; maxTurnsCap: number; timeZone: string };
  canEdit: boolean;
}) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const form = useForm<Values, unknown, Parsed>({
    resolver: zodResolver(workspaceSettingsInput),
    defaultValues: { name: workspace.name, maxTurnsCap: workspace.maxTurnsCap, timeZone: workspace.timeZone },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setSaved(false);
    const result = await updateWorkspaceSettingsAction(workspace.id, values);
    if (!result.ok) {
      applyServerIssues(form.setError, result.issues);
      setFormError(result.error);
      return;
    }
    form.reset(values);
    setSaved(true);
    router.refresh();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-xl space-y-5">
      {!canEdit && (
        <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-600">
          Only admins can change workspace settings. You can read them here.
        </p>
      )}
      <FormError message={formError} />
      <fieldset disabled={!canEdit} className="space-y-5">
        <FormInput form={form} name="name" label="Workspace name" required />
        <FormInput
          form={form}
          name="maxTurnsCap"
          type="number"
          label="Safety cap on conversation turns"
          hint="No multi-turn conversation runs longer than this (1–200), also one whose max_turns is empty or higher; a case stopped here is reported as stopped by the safety cap."
          min={1}
          max={200}
          className="w-32"
        />
        <Field
          id="timeZone"
          label="Time zone"
          hint="IANA name (e.g. Europe/Berlin). Suite schedules run at their times on this zone's clock, following its daylight saving changes."
          error={errors.timeZone?.message}
        >
          <Input id="timeZone" list="time-zones" className="w-72" aria-invalid={!!errors.timeZone} {...form.register("timeZone")} />
          <datalist id="time-zones">
            {timeZoneNames().map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
        </Field>
        <p className="text-xs text-slate-500">
          Which networks model configurations and HTTP agents may reach is set for the whole Assay instance by its administrator
          (ASSAY_ALLOW_PRIVATE_NETWORKS, ASSAY_ALLOW_LOOPBACK). Link-local and cloud metadata addresses are always refused.
        </p>
      </fieldset>
      {canEdit && (
        <div className="flex items-center gap-3">
          <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
            Save settings
          </SubmitButton>
          {saved && (
            <span role="status" className="text-sm text-green-700">
              Settings saved
            </span>
          )}
        </div>
      )}
    </form>
  );
}
