"use client";
import type { Path, UseFormReturn } from "react-hook-form";
import type { CompareOptions } from "@/lib/comparisons/actions";
import { Field, InputField, NamedOptions, Select, Textarea } from "@/components/ui/field";
import { NumberField } from "@/components/ui/number-field";
import { ARM_FIELDS, type Arm, type FormValues } from "./compare-form-model";
import { PromptDiff } from "./prompt-diff";

/** One arm's column of the Compare dialog: label, agent, model configuration, system prompt (with its diff marker), temperature, max tokens, variables. */
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
  const variableNames = agent?.variables_schema.map((v) => v.name) ?? [];

  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-4">
      <legend className="px-1 text-sm font-semibold text-slate-800">{title}</legend>
      <InputField id={id(f("label"))} label="Label" error={errorAt(f("label"))} {...form.register(f("label"))} />
      <Field id={id(f("agent_id"))} label="Agent" error={errorAt(f("agent_id"))}>
        <Select
          id={id(f("agent_id"))}
          {...form.register(f("agent_id"), {
            onChange: (e: React.ChangeEvent<HTMLSelectElement>) => {
              const next = options.agents.find((a) => a.id === e.target.value);
              form.setValue(f("system_prompt"), next?.system_prompt ?? "");
              form.setValue(f("model_config_id"), "");
            },
          })}
          aria-invalid={Boolean(errorAt(f("agent_id")))}
        >
          {options.agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
              {a.id === options.suite_agent_id ? " (suite's agent)" : ""}
            </option>
          ))}
        </Select>
      </Field>
      <Field id={id(f("model_config_id"))} label="Model configuration" error={errorAt(f("model_config_id"))}>
        <Select
          id={id(f("model_config_id"))}
          {...form.register(f("model_config_id"))}
          aria-invalid={Boolean(errorAt(f("model_config_id")))}
        >
          <option value="">Agent&apos;s own{modelConfig ? ` (${modelConfig.name} · ${modelConfig.model})` : ""}</option>
          {options.model_configs.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name} · {m.model}
            </option>
          ))}
        </Select>
      </Field>
      <Field
        id={id(f("system_prompt"))}
        label="System prompt"
        hint={agent?.kind === "http" ? "An HTTP agent has no system prompt." : "Prefilled with the agent's prompt."}
        error={errorAt(f("system_prompt"))}
      >
        <Textarea
          id={id(f("system_prompt"))}
          rows={6}
          className="font-mono text-xs"
          disabled={agent?.kind === "http"}
          {...form.register(f("system_prompt"))}
          aria-invalid={Boolean(errorAt(f("system_prompt")))}
        />
      </Field>
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
      {options.presets?.length > 0 && (
        <Field id={id(`${arm}.preset`)} label="Preset" hint="Fills this arm's variables with a preset of the suite">
          <Select
            id={id(`${arm}.preset`)}
            defaultValue=""
            onChange={(e) => {
              const preset = options.presets.find((p) => p.id === e.target.value);
              if (preset) form.setValue(f("variables"), JSON.stringify(preset.values, null, 1), { shouldDirty: true });
            }}
          >
            <NamedOptions items={options.presets} none="Choose a preset…" />
          </Select>
        </Field>
      )}
      <Field
        id={id(f("variables"))}
        label="Variables (optional)"
        hint={
          variableNames.length > 0 ? `A JSON object; this agent declares: ${variableNames.join(", ")}` : "A JSON object of variable values"
        }
        error={errorAt(f("variables"))}
      >
        <Textarea
          id={id(f("variables"))}
          rows={2}
          className="font-mono text-xs"
          {...form.register(f("variables"))}
          aria-invalid={Boolean(errorAt(f("variables")))}
        />
      </Field>
    </fieldset>
  );
}
