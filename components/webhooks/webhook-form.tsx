"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { WEBHOOK_EVENTS, webhookFormInput, type WebhookFormInput } from "@/lib/webhooks/schemas";
import type { WebhookDto } from "@/lib/webhooks/dto";
import { createWebhookAction, updateWebhookAction } from "@/lib/webhooks/actions";
import { FormError } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { SubmitButton } from "@/components/ui/submit-button";
import { applyServerIssues } from "@/components/forms/server-issues";
import { FormInput } from "@/components/forms/form-input";

export const EVENT_LABELS: Record<(typeof WEBHOOK_EVENTS)[number], string> = {
  "alert.raised": "Regression alert raised",
  "run.completed": "Run completed",
  "run.failed": "Run failed",
  "comparison.completed": "Comparison completed",
};

const FIELDS = ["url", "secret", "events", "enabled", "description"];

/** Add a webhook, or edit one (`webhook`): URL, write-only secret, events, enabled, description. */
export function WebhookForm({ workspaceId, webhook, onDone }: { workspaceId: string; webhook?: WebhookDto; onDone?: () => void }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const prefix = webhook ? `webhook-${webhook.id.slice(0, 8)}` : "webhook-new";
  const form = useForm<WebhookFormInput>({
    resolver: zodResolver(webhookFormInput),
    defaultValues: webhook
      ? {
          url: webhook.url,
          secret: "",
          events: webhook.events as WebhookFormInput["events"],
          enabled: webhook.enabled,
          description: webhook.description,
        }
      : { url: "", secret: "", events: ["alert.raised"], enabled: true, description: "" },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    const result = webhook
      ? await updateWebhookAction(workspaceId, { ...values, id: webhook.id })
      : await createWebhookAction(workspaceId, values);
    if (!result.ok) {
      const rest = applyServerIssues(form.setError, result.issues, FIELDS);
      if (rest.length > 0 || result.issues.length === 0) setFormError(result.error);
      return;
    }
    if (!webhook) form.reset();
    onDone?.();
    router.refresh();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label={webhook ? `Edit webhook ${webhook.url}` : "Add a webhook"}>
      <FormInput
        form={form}
        name="url"
        id={`${prefix}-url`}
        label="Payload URL"
        required
        type="url"
        placeholder="https://hooks.slack.com/services/…"
      />
      <FormInput
        form={form}
        name="secret"
        id={`${prefix}-secret`}
        label="Secret"
        required={!webhook}
        hint={
          webhook
            ? "Leave empty to keep the current secret. It is never shown again."
            : "At least 16 characters. Assay signs every delivery with it (X-Assay-Signature); it is never shown again."
        }
        type="password"
        autoComplete="new-password"
      />
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Events</legend>
        <div className="mt-1 flex flex-wrap gap-x-5 gap-y-1">
          {WEBHOOK_EVENTS.map((e) => (
            <label key={e} className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" value={e} {...form.register("events")} />
              {EVENT_LABELS[e]} <code className="text-xs text-slate-500">{e}</code>
            </label>
          ))}
        </div>
        {errors.events && <p className="mt-1 text-xs text-red-600">{errors.events.message ?? "Choose at least one event"}</p>}
      </fieldset>
      <FormInput form={form} name="description" id={`${prefix}-description`} label="Description" placeholder="e.g. #qa-alerts in Slack" />
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" {...form.register("enabled")} /> Enabled
      </label>
      <FormError message={formError} />
      <div className="flex gap-2">
        <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
          {webhook ? "Save webhook" : "Add webhook"}
        </SubmitButton>
        {onDone && webhook && (
          <Button variant="secondary" onClick={onDone}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
