"use client";
import { useFieldArray, useFormContext } from "react-hook-form";
import type { AgentFormValues } from "@/lib/agents/form-schema";
import { FormInput } from "@/components/forms/form-input";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { sameOrigin } from "@/lib/url-secrets";
import { RateLimitFields } from "@/components/forms/rate-limit-fields";

/** URL, headers (stored encrypted, shown masked), timeout and declared rate limits of an HTTP agent. */
export function HttpFields({
  readOnly,
  saved,
}: {
  readOnly: boolean;
  /** The stored URL and (masked) headers, to warn that a new host drops the saved header values. */
  saved?: { url: string; headers: Record<string, string> } | null;
}) {
  const form = useFormContext<AgentFormValues>();
  const { control, register, formState, watch } = form;
  const url = watch("http.url");
  const rows = watch("http.headers");
  // Secrets follow their host: header values still shown masked are dropped when the origin changes.
  const dropped =
    saved && url.trim() !== "" && !sameOrigin(url, saved.url)
      ? rows.filter((h) => h.value !== "" && saved.headers[h.name.trim()] === h.value).map((h) => h.name.trim())
      : [];
  const { fields, append, remove } = useFieldArray({ control, name: "http.headers" });
  const errors = formState.errors.http;
  const headersError = errors?.headers?.message ?? errors?.headers?.root?.message;
  return (
    <Card className="space-y-4 p-5">
      <h2 className="text-base font-semibold">HTTP endpoint</h2>
      <FormInput
        form={form}
        name="http.url"
        id="http-url"
        label="URL"
        hint="Assay POSTs the conversation here and expects the reply, tool calls and token usage."
        inputMode="url"
        placeholder="https://agent.internal/chat"
      />
      {!readOnly && dropped.length > 0 && (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="headers-host-warning">
          The URL points to another host, so the saved values of {dropped.join(", ")} will be removed when you save. Enter them again to
          send them to the new host.
        </p>
      )}
      <FormInput form={form} name="http.timeout_ms" id="http-timeout_ms" label="Timeout (ms)" inputMode="numeric" className="max-w-40" />
      <RateLimitFields
        idPrefix="http-"
        inputs={{ rpm: register("http.rpm"), tpm: register("http.tpm"), max_concurrency: register("http.max_concurrency") }}
        errors={{ rpm: errors?.rpm?.message, tpm: errors?.tpm?.message, max_concurrency: errors?.max_concurrency?.message }}
      />
      <div className="space-y-2">
        <div className="flex items-center justify-between">
          <div>
            <p className="text-sm font-medium text-slate-700">Headers</p>
            <p className="text-xs text-slate-500">Stored encrypted and shown masked; leave a masked value unchanged to keep it.</p>
          </div>
          {!readOnly && (
            <Button variant="secondary" size="sm" onClick={() => append({ name: "", value: "" })}>
              Add header
            </Button>
          )}
        </div>
        {fields.map((f, i) => (
          <div key={f.id} className="grid grid-cols-[1fr_2fr_auto] items-start gap-2">
            <FormInput
              form={form}
              name={`http.headers.${i}.name`}
              id={`http-headers-${i}-name`}
              label="Header name"
              className="font-mono"
              placeholder="Authorization"
            />
            <FormInput
              form={form}
              name={`http.headers.${i}.value`}
              id={`http-headers-${i}-value`}
              label="Header value"
              className="font-mono"
              autoComplete="off"
            />
            {!readOnly && (
              <Button variant="ghost" size="sm" className="mt-6" onClick={() => remove(i)} aria-label={`Remove header ${i + 1}`}>
                Remove
              </Button>
            )}
          </div>
        ))}
        {headersError && (
          <p className="text-xs text-red-600" data-testid="error-http-headers">
            {headersError}
          </p>
        )}
      </div>
    </Card>
  );
}
