"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { modelConfigFormDefaults, modelConfigFormSchema, type ModelConfigFormValues } from "@/lib/model-configs/form-schema";
import type { ModelConfigInput } from "@/lib/model-configs/schemas";
import { createModelConfigAction, updateModelConfigAction } from "@/lib/model-configs/actions";
import type { ModelConfigDto } from "@/lib/model-configs/dto";
import { FormError, InputField } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { SubmitButton } from "@/components/ui/submit-button";
import { applyServerIssues, formErrorText } from "@/components/forms/server-issues";
import { RateLimitFields } from "@/components/forms/rate-limit-fields";
import { sameOrigin } from "@/lib/url-secrets";

/** Create or edit a model configuration. The API key is write-only: only its hint is shown. */
export function ModelConfigForm({ workspaceId, config }: { workspaceId: string; config?: ModelConfigDto }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ModelConfigFormValues, unknown, ModelConfigInput>({
    resolver: zodResolver(modelConfigFormSchema),
    defaultValues: modelConfigFormDefaults(config),
  });
  const { errors, isSubmitting } = form.formState;
  const removeKey = form.watch("remove_api_key");
  const baseUrl = form.watch("base_url");
  const newKey = form.watch("api_key");
  // Secrets follow their host: saving a base URL on another origin without a new key drops the saved one.
  const keyWillBeDropped = Boolean(
    config?.has_api_key && !removeKey && newKey.trim() === "" && baseUrl.trim() !== "" && !sameOrigin(baseUrl, config.base_url),
  );

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    const result = config
      ? await updateModelConfigAction(workspaceId, { ...values, id: config.id })
      : await createModelConfigAction(workspaceId, values);
    if (!result.ok) {
      const rest = applyServerIssues(form.setError, result.issues, Object.keys(modelConfigFormDefaults()));
      setFormError(formErrorText(result.error, rest));
      return;
    }
    router.push(`/w/${workspaceId}/model-configs`);
    router.refresh();
  });

  /** A text field's id, message and binding; its description points at the error, else the hint. */
  const field = (name: keyof ModelConfigFormValues) => ({
    id: `mc-${name}`,
    error: errors[name]?.message,
    "aria-describedby": errors[name] ? `mc-${name}-error` : `mc-${name}-hint`,
    ...form.register(name),
  });

  return (
    <form onSubmit={onSubmit} className="max-w-xl space-y-4" noValidate>
      <FormError message={formError} />
      <InputField label="Name" {...field("name")} />
      <InputField
        label="Base URL"
        hint="An OpenAI-compatible API, e.g. https://api.openai.com/v1 or http://localhost:11434/v1"
        inputMode="url"
        placeholder="https://api.openai.com/v1"
        {...field("base_url")}
      />
      <InputField label="Model" hint="Sent as the model name, e.g. gpt-4o-mini or llama3.1" {...field("model")} />
      <InputField
        label="Embeddings"
        hint="Optional embedding model name for semantic similarity checks, e.g. text-embedding-3-small"
        {...field("embedding_model")}
      />
      <InputField
        label="API key"
        hint={
          config?.has_api_key
            ? `Saved key ${config.api_key_hint}. Leave blank to keep it.`
            : "Optional for local endpoints. Stored encrypted; never shown again."
        }
        type="password"
        autoComplete="off"
        disabled={removeKey}
        {...field("api_key")}
      />
      {keyWillBeDropped && (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="api-key-host-warning">
          The base URL points to another host, so the saved key ({config?.api_key_hint}) will be removed when you save. Enter the key again
          to keep using one.
        </p>
      )}
      {config?.has_api_key && (
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" {...form.register("remove_api_key")} />
          Remove the saved key
        </label>
      )}
      <div className="grid grid-cols-2 gap-4">
        <InputField label="Temperature" hint="0 to 2; empty uses the endpoint's default" inputMode="decimal" {...field("temperature")} />
        <InputField label="Max tokens" hint="Empty uses the endpoint's default" inputMode="numeric" {...field("max_tokens")} />
        <InputField
          label="Input price per 1M tokens"
          hint="Optional; estimates the cost of matrix runs"
          inputMode="decimal"
          {...field("input_price_per_mtok")}
        />
        <InputField
          label="Output price per 1M tokens"
          hint="Optional; completion tokens"
          inputMode="decimal"
          {...field("output_price_per_mtok")}
        />
      </div>
      <RateLimitFields
        idPrefix="mc-"
        inputs={{ rpm: form.register("rpm"), tpm: form.register("tpm"), max_concurrency: form.register("max_concurrency") }}
        errors={{ rpm: errors.rpm?.message, tpm: errors.tpm?.message, max_concurrency: errors.max_concurrency?.message }}
      />
      <div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" id="mc-supports_vision" aria-describedby="mc-supports_vision-hint" {...form.register("supports_vision")} />
          Vision-capable
        </label>
        <p id="mc-supports_vision-hint" className="mt-1 text-xs text-slate-500">
          The model accepts images: a test case&apos;s image files are sent to it as images. Otherwise a case with an image file records an
          error.
        </p>
      </div>
      <div className="flex gap-2">
        <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
          Save
        </SubmitButton>
        <Button variant="secondary" onClick={() => router.push(`/w/${workspaceId}/model-configs`)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
