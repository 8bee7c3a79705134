"use client";
import type { Path, UseFormReturn } from "react-hook-form";
import type { CompareOptions } from "@/lib/comparisons/actions";
import { InputField, SelectField, TextareaField } from "@/components/ui/field";
import { NumberField } from "@/components/ui/number-field";
import { RunVariablesFields } from "@/components/variables/run-variables-fields";
import { ARM_FIELDS, armVariablesContext, declaredValues, type Arm, type FormValues } from "./compare-form-model";
import { PromptDiff } from "./prompt-diff";

/**
 * One arm's column of the Compare dialog: label, agent, model configuration, system prompt (with
 * its diff marker), temperature, max tokens, and the agent's variables as the Run dialog's typed
 * inputs (with a preset select, what each resolves to, and each one's error).
 */
export function ArmFields({
  arm,
  title,
  form,
  options,
  id,
  errorAt,
}: {
  arm: Arm;
  title: string;
  form: UseFormReturn<FormValues>;
  options: CompareOptions;
  id: (name: string) => string;
  errorAt: (path: string) => string | undefined;
}) {
  const values = form.watch(arm);
  const agent = options.agents.find((a) => a.id === values.agent_id);
  const modelConfig = options.model_configs.find((m) => m.id === agent?.model_config_id);
  const f = (name: (typeof ARM_FIELDS)[number]) => `${arm}.${name}` as Path<FormValues>;
  const definitions = agent?.variables_schema ?? [];
  // Issues at this arm's variables: at their input when the agent declares them, else listed below.
  const variableIssues = Object.entries(
    (form.formState.errors[arm]?.variables ?? {}) as Record<string, { message?: string } | undefined>,
  ).filter(([, e]) => e?.message);
  const variableErrors = Object.fromEntries(variableIssues.map(([name, e]) => [name, e!.message]));
  const otherVariableIssues = variableIssues
    .filter(([name]) => !definitions.some((d) => d.name === name))
    .map(([name, e]) => `${name}: ${e!.message}`);

  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-4">
      <legend className="px-1 text-sm font-semibold text-slate-800">{title}</legend>
      <InputField id={id(f("label"))} label="Label" error={errorAt(f("label"))} {...form.register(f("label"))} />
      <SelectField
        id={id(f("agent_id"))}
        label="Agent"
        error={errorAt(f("agent_id"))}
        {...form.register(f("agent_id"), {
          onChange: (e: React.ChangeEvent<HTMLSelectElement>) => {
            const next = options.agents.find((a) => a.id === e.target.value);
            form.setValue(f("system_prompt"), next?.system_prompt ?? "");
            form.setValue(f("model_config_id"), "");
            // Values of variables the new agent does not declare would be refused as unknown.
            form.setValue(f("variables"), declaredValues(values.variables, next?.variables_schema ?? []));
            form.setValue(`${arm}.unreadable`, []);
          },
        })}
      >
        {options.agents.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
            {a.id === options.suite_agent_id ? " (suite's agent)" : ""}
          </option>
        ))}
      </SelectField>
      <SelectField
        id={id(f("model_config_id"))}
        label="Model configuration"
        error={errorAt(f("model_config_id"))}
        {...form.register(f("model_config_id"))}
      >
        <option value="">Agent&apos;s own{modelConfig ? ` (${modelConfig.name} · ${modelConfig.model})` : ""}</option>
        {options.model_configs.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name} · {m.model}
          </option>
        ))}
      </SelectField>
      <TextareaField
        id={id(f("system_prompt"))}
        label="System prompt"
        hint={agent?.kind === "http" ? "An HTTP agent has no system prompt." : "Prefilled with the agent's prompt."}
        error={errorAt(f("system_prompt"))}
        rows={6}
        className="font-mono text-xs"
        disabled={agent?.kind === "http"}
        {...form.register(f("system_prompt"))}
      />
      {agent?.kind === "chat" && <PromptDiff original={agent.system_prompt ?? ""} current={values.system_prompt} />}
      <div className="grid grid-cols-2 gap-3">
        <NumberField
          id={id(f("temperature"))}
          label="Temperature"
          hint="Empty: the model's default"
          error={errorAt(f("temperature"))}
          inputMode="decimal"
          step="0.1"
          min={0}
          max={2}
          {...form.register(f("temperature"))}
        />
        <NumberField
          id={id(f("max_tokens"))}
          label="Max tokens"
          hint="Empty: the model's default"
          error={errorAt(f("max_tokens"))}
          inputMode="numeric"
          min={1}
          {...form.register(f("max_tokens"))}
        />
      </div>
      <RunVariablesFields
        context={armVariablesContext(options, values.agent_id)}
        value={values.variables}
        onChange={(next) => {
          form.setValue(f("variables"), next, { shouldDirty: true });
          form.clearErrors(f("variables"));
        }}
        errors={variableErrors}
        onUnreadable={(name, bad) => {
          const others = values.unreadable.filter((n) => n !== name);
          form.setValue(`${arm}.unreadable`, bad ? [...others, name] : others);
        }}
      />
      {otherVariableIssues.length > 0 && (
        <ul className="list-disc pl-5 text-xs text-red-600">
          {otherVariableIssues.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
