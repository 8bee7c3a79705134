"use client";
import { useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { FormProvider, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { agentFormDefaults, agentFormSchema, formIssuePath, type AgentFormValues } from "@/lib/agents/form-schema";
import type { AgentInput } from "@/lib/agents/schemas";
import { createAgentAction, updateAgentAction } from "@/lib/agents/actions";
import type { AgentDto } from "@/lib/agents/dto";
import { Field, FormError, InputField, NamedOptions, Select, SelectField, TextareaField } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { SubmitButton } from "@/components/ui/submit-button";
import { Card } from "@/components/ui/card";
import { applyServerIssues, formErrorText } from "@/components/forms/server-issues";
import { ToolsEditor } from "./tools-editor";
import { HttpFields } from "./http-fields";
import { VariablesEditor } from "./variables-editor";

export type ModelConfigOption = { id: string; name: string; model: string };

/** Create or edit an agent; `readOnly` renders the same fields disabled (viewers). */
export function AgentForm({
  workspaceId,
  agent,
  modelConfigs,
  readOnly = false,
  canCreateModelConfig = false,
}: {
  workspaceId: string;
  agent?: AgentDto;
  modelConfigs: ModelConfigOption[];
  readOnly?: boolean;
  canCreateModelConfig?: boolean;
}) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [savedWarnings, setSavedWarnings] = useState<string[]>([]);
  const form = useForm<AgentFormValues, unknown, AgentInput>({
    resolver: zodResolver(agentFormSchema),
    defaultValues: agentFormDefaults(agent),
  });
  const { errors, isSubmitting } = form.formState;
  const kind = form.watch("kind");
  const configId = form.watch("model_config_id");
  const selectedConfig = modelConfigs.find((c) => c.id === configId);

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setSaved(false);
    const result = agent
      ? await updateAgentAction(workspaceId, { id: agent.id, patch: values })
      : await createAgentAction(workspaceId, values);
    if (!result.ok) {
      const issues = result.issues.map((i) => ({ ...i, path: formIssuePath(i.path) }));
      const rest = applyServerIssues(form.setError, issues, [
        "name",
        "description",
        "kind",
        "system_prompt",
        "model_config_id",
        "tools",
        "http",
        "variables_schema",
        "otel_service_name",
      ]);
      setFormError(formErrorText(result.error, rest));
      return;
    }
    if (agent) {
      form.reset(agentFormDefaults(result.data));
      setSaved(true);
      setSavedWarnings("warnings" in result.data && Array.isArray(result.data.warnings) ? result.data.warnings : []);
      router.refresh();
    } else {
      router.push(`/w/${workspaceId}/agents/${result.data.id}`);
    }
  });

  /** A field's id, message and binding; its description points at the error. */
  const field = (name: "name" | "description" | "system_prompt" | "model_config_id") => ({
    id: `agent-${name}`,
    error: errors[name]?.message,
    "aria-describedby": errors[name] ? `agent-${name}-error` : undefined,
    ...form.register(name),
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <fieldset disabled={readOnly || isSubmitting} className="space-y-5">
          <FormError message={formError} />
          <Card className="space-y-4 p-5">
            <InputField label="Name" {...field("name")} />
            <TextareaField label="Description" rows={2} {...field("description")} />
            <InputField
              id="agent-otel_service_name"
              label="OpenTelemetry service name (optional)"
              hint="The service.name your agent's traces carry: its conversations on the Traffic page link to this agent."
              error={errors.otel_service_name?.message}
              {...form.register("otel_service_name")}
            />
            <Field
              id="agent-kind"
              label="Kind"
              hint="Chat agents are a model with a system prompt and mocked tools; HTTP agents are your own service behind a URL."
              error={errors.kind?.message}
            >
              <Select id="agent-kind" {...form.register("kind")}>
                <option value="chat">Chat (model configuration + system prompt + tools)</option>
                <option value="http">HTTP (your agent behind a URL)</option>
              </Select>
            </Field>
          </Card>

          {kind === "chat" ? (
            <>
              <Card className="space-y-4 p-5">
                <SelectField
                  label="Model configuration"
                  hint={selectedConfig ? `Model: ${selectedConfig.model}` : "The endpoint and model this agent runs on"}
                  {...field("model_config_id")}
                >
                  <NamedOptions items={modelConfigs} none="Choose…" />
                </SelectField>
                {modelConfigs.length === 0 && (
                  <p className="text-sm text-slate-600">
                    No model configurations yet.{" "}
                    {canCreateModelConfig ? (
                      <Link href={`/w/${workspaceId}/model-configs/new`} className="text-indigo-700 hover:underline">
                        Create a model configuration
                      </Link>
                    ) : (
                      "Ask a workspace admin to add one."
                    )}
                  </p>
                )}
                <TextareaField label="System prompt" rows={8} className="font-mono text-xs" {...field("system_prompt")} />
              </Card>
              <ToolsEditor readOnly={readOnly} />
            </>
          ) : (
            <HttpFields readOnly={readOnly} saved={agent?.http} />
          )}

          <VariablesEditor readOnly={readOnly} modelConfigs={modelConfigs} />
        </fieldset>
        {!readOnly && (
          <div className="flex gap-2">
            <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
              Save
            </SubmitButton>
            <Button variant="secondary" onClick={() => router.push(`/w/${workspaceId}/agents`)}>
              Cancel
            </Button>
            {saved && !form.formState.isDirty && (
              <p aria-live="polite" className="self-center text-sm text-green-700">
                Saved.{savedWarnings.length > 0 && ` Note: ${savedWarnings.join("; ")}.`}
              </p>
            )}
          </div>
        )}
      </form>
    </FormProvider>
  );
}
