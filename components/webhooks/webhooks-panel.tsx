"use client";
import { useState } from "react";
import Link from "next/link";
import type { WebhookDto } from "@/lib/webhooks/dto";
import { deleteWebhookAction, setWebhookEnabledAction, testWebhookAction } from "@/lib/webhooks/actions";
import { ActionButton } from "@/components/ui/action-button";
import { DeleteButton } from "@/components/ui/delete-button";
import { Badge, Section } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { EVENT_LABELS, WebhookForm } from "./webhook-form";

/** Settings → Webhooks: the form to add one, then each webhook with its actions. */
export function WebhooksPanel({
  workspaceId,
  webhooks,
  selectedId,
}: {
  workspaceId: string;
  webhooks: WebhookDto[];
  selectedId: string | null;
}) {
  return (
    <div className="space-y-6">
      <Section
        title="Add a webhook"
        description={
          <>
            Assay POSTs JSON to the URL when the chosen events happen, signed with your secret. Deliveries that fail are retried with
            exponential backoff (1 min up to 6 h, 8 attempts). The body&apos;s <code>text</code> field makes Slack incoming webhooks work as
            is.
          </>
        }
      >
        <WebhookForm workspaceId={workspaceId} />
      </Section>
      {webhooks.length === 0 ? (
        <p className="text-sm text-slate-500">No webhooks yet.</p>
      ) : (
        <ul aria-label="Webhooks" className="space-y-3">
          {webhooks.map((w) => (
            <WebhookItem key={w.id} workspaceId={workspaceId} webhook={w} selected={w.id === selectedId} />
          ))}
        </ul>
      )}
    </div>
  );
}

function WebhookItem({ workspaceId, webhook, selected }: { workspaceId: string; webhook: WebhookDto; selected: boolean }) {
  const [editing, setEditing] = useState(false);
  return (
    <li
      aria-label={`Webhook ${webhook.url}`}
      className={cn("rounded-lg border bg-white p-4 shadow-sm", selected ? "border-indigo-300" : "border-slate-200")}
    >
      {editing ? (
        <WebhookForm workspaceId={workspaceId} webhook={webhook} onDone={() => setEditing(false)} />
      ) : (
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2">
              <span className="font-mono text-sm break-all text-slate-900">{webhook.url}</span>
              {webhook.enabled ? <Badge tone="green">Enabled</Badge> : <Badge tone="slate">Disabled</Badge>}
            </p>
            {webhook.description && <p className="mt-0.5 text-sm text-slate-600">{webhook.description}</p>}
            <p className="mt-1 text-xs text-slate-500">
              {webhook.events.map((e) => EVENT_LABELS[e as keyof typeof EVENT_LABELS] ?? e).join(" · ")}
            </p>
          </div>
          <div className="flex flex-wrap items-start gap-2">
            <Link
              href={`/w/${workspaceId}/settings/webhooks?webhook=${webhook.id}#deliveries`}
              aria-current={selected ? "true" : undefined}
              className="rounded-md px-2 py-1.5 text-sm text-indigo-700 hover:bg-indigo-50"
            >
              Deliveries
            </Link>
            <ActionButton
              variant="secondary"
              size="sm"
              pendingLabel="Sending…"
              aria-label={`Send test event to ${webhook.url}`}
              action={() => testWebhookAction(workspaceId, { id: webhook.id })}
            >
              Send test event
            </ActionButton>
            <ActionButton
              variant="secondary"
              size="sm"
              aria-label={`${webhook.enabled ? "Disable" : "Enable"} ${webhook.url}`}
              action={() => setWebhookEnabledAction(workspaceId, { id: webhook.id, enabled: !webhook.enabled })}
            >
              {webhook.enabled ? "Disable" : "Enable"}
            </ActionButton>
            <Button variant="secondary" size="sm" aria-label={`Edit ${webhook.url}`} onClick={() => setEditing(true)}>
              Edit
            </Button>
            <DeleteButton
              size="sm"
              align="end"
              name={webhook.url}
              noun="webhook"
              description="Its delivery log and any deliveries still queued are deleted too. This cannot be undone."
              action={() => deleteWebhookAction(workspaceId, { id: webhook.id })}
            />
          </div>
        </div>
      )}
    </li>
  );
}
