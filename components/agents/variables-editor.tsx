"use client";
import { useFieldArray, useFormContext } from "react-hook-form";
import { useState } from "react";
import { agentFormDefaults, emptyVariable, type AgentFormValues } from "@/lib/agents/form-schema";
import { agentEvalVariableSet } from "@/lib/agents/default-variables";
import { VARIABLE_DATA_TYPES, VARIABLE_VALUE_SOURCES } from "@/lib/agents/schemas";
import { Field, Input, Options, Select } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

/**
 * The "test type" level of the variables model: the variables tests of this agent may use. "Add
 * Agent Eval variables" adds the model's default set in one click, with the workspace's model
 * configurations as AIConfiguration's values; variables already declared by name are kept.
 */
export function VariablesEditor({ readOnly, modelConfigs = [] }: { readOnly: boolean; modelConfigs?: { name: string; model: string }[] }) {
  const { control, getValues } = useFormContext<AgentFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: "variables_schema" });
  const [note, setNote] = useState<string | null>(null);
  const addDefaultSet = () => {
    const existing = new Set(getValues("variables_schema").map((v) => v.name.trim()));
    const added = agentEvalVariableSet(modelConfigs).filter((d) => !existing.has(d.name));
    append(agentFormDefaults({ ...EMPTY_AGENT, variables_schema: added }).variables_schema);
    const skipped = ["AIConfiguration", "Temperature", "MaxTokens"].filter((n) => existing.has(n));
    setNote(
      [
        added.length ? `Added ${added.map((d) => d.name).join(", ")}.` : "Nothing to add.",
        skipped.length ? `Already declared: ${skipped.join(", ")}.` : "",
        modelConfigs.length === 0 ? "AIConfiguration needs at least one model configuration in the workspace." : "",
      ]
        .filter(Boolean)
        .join(" "),
    );
  };
  return (
    <Card className="space-y-4 p-5">
      <div className="flex items-center justify-between">
        <div>
          <h2 className="text-base font-semibold">Variables</h2>
          <p className="text-sm text-slate-600">Values suites and runs can set, used as {"{{name}}"} in prompts and cases.</p>
        </div>
        {!readOnly && (
          <div className="flex gap-2">
            <Button variant="secondary" size="sm" onClick={addDefaultSet}>
              Add Agent Eval variables
            </Button>
            <Button variant="secondary" size="sm" onClick={() => append({ ...emptyVariable, possible_values: [] })}>
              Add variable
            </Button>
          </div>
        )}
      </div>
      {note && (
        <p className="text-sm text-slate-600" aria-live="polite">
          {note}
        </p>
      )}
      {fields.length === 0 && <p className="text-sm text-slate-500">No variables.</p>}
      {fields.map((f, i) => (
        <VariableRow key={f.id} index={i} readOnly={readOnly} onRemove={() => remove(i)} />
      ))}
    </Card>
  );
}

const typeLabels: Record<(typeof VARIABLE_DATA_TYPES)[number], string> = {
  string: "Text",
  number: "Number",
  boolean: "True/false",
  date: "Date (YYYY-MM-DD)",
};

function VariableRow({ index, readOnly, onRemove }: { index: number; readOnly: boolean; onRemove: () => void }) {
  const { control, register, watch, formState } = useFormContext<AgentFormValues>();
  const values = useFieldArray({ control, name: `variables_schema.${index}.possible_values` });
  const e = formState.errors.variables_schema?.[index];
  const source = watch(`variables_schema.${index}.value_source`);
  const id = (name: string) => `variables-${index}-${name}`;
  const possibleError = e?.possible_values?.message ?? e?.possible_values?.root?.message;
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-4" aria-label={`Variable ${index + 1}`}>
      <div className="grid gap-3 md:grid-cols-2">
        <Field id={id("name")} label="Variable name" error={e?.name?.message}>
          <Input
            id={id("name")}
            className="font-mono"
            placeholder="locale"
            aria-invalid={!!e?.name}
            {...register(`variables_schema.${index}.name`)}
          />
        </Field>
        <Field id={id("display_name")} label="Display name" error={e?.display_name?.message}>
          <Input id={id("display_name")} aria-invalid={!!e?.display_name} {...register(`variables_schema.${index}.display_name`)} />
        </Field>
      </div>
      <Field id={id("description")} label="Variable description" error={e?.description?.message}>
        <Input id={id("description")} {...register(`variables_schema.${index}.description`)} />
      </Field>
      <div className="grid gap-3 md:grid-cols-3">
        <Field id={id("data_type")} label="Data type" error={e?.data_type?.message}>
          <Select id={id("data_type")} {...register(`variables_schema.${index}.data_type`)}>
            <Options values={VARIABLE_DATA_TYPES} labels={typeLabels} />
          </Select>
        </Field>
        <Field
          id={id("value_source")}
          label="Value source"
          hint={source === "static" ? "One of the possible values" : "Any value of the type"}
          error={e?.value_source?.message}
        >
          <Select id={id("value_source")} {...register(`variables_schema.${index}.value_source`)}>
            <Options values={VARIABLE_VALUE_SOURCES} labels={(s) => (s === "static" ? "Static (pick from a list)" : "Freeform")} />
          </Select>
        </Field>
        <Field id={id("default_value")} label="Default value" hint="Empty: no default" error={e?.default_value?.message}>
          <Input id={id("default_value")} aria-invalid={!!e?.default_value} {...register(`variables_schema.${index}.default_value`)} />
        </Field>
      </div>
      {source === "static" && (
        <div className="space-y-2">
          <div className="flex items-center justify-between">
            <p className="text-sm font-medium text-slate-700">Possible values</p>
            {!readOnly && (
              <Button variant="secondary" size="sm" onClick={() => values.append({ value: "", label: "", description: "" })}>
                Add value
              </Button>
            )}
          </div>
          {values.fields.map((pv, j) => (
            <div key={pv.id} className="grid grid-cols-[1fr_1fr_2fr_auto] items-start gap-2">
              <Field id={id(`pv-${j}-value`)} label="Value" error={e?.possible_values?.[j]?.value?.message}>
                <Input id={id(`pv-${j}-value`)} {...register(`variables_schema.${index}.possible_values.${j}.value`)} />
              </Field>
              <Field id={id(`pv-${j}-label`)} label="Label" error={e?.possible_values?.[j]?.label?.message}>
                <Input id={id(`pv-${j}-label`)} {...register(`variables_schema.${index}.possible_values.${j}.label`)} />
              </Field>
              <Field id={id(`pv-${j}-description`)} label="Value description" error={e?.possible_values?.[j]?.description?.message}>
                <Input id={id(`pv-${j}-description`)} {...register(`variables_schema.${index}.possible_values.${j}.description`)} />
              </Field>
              {!readOnly && (
                <Button variant="ghost" size="sm" className="mt-6" onClick={() => values.remove(j)} aria-label={`Remove value ${j + 1}`}>
                  Remove
                </Button>
              )}
            </div>
          ))}
          {possibleError && (
            <p className="text-xs text-red-600" data-testid={`error-${id("possible_values")}`}>
              {possibleError}
            </p>
          )}
        </div>
      )}
      <div className="flex items-center justify-between">
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" {...register(`variables_schema.${index}.required`)} />
          Required
        </label>
        {!readOnly && (
          <Button variant="ghost" size="sm" onClick={onRemove}>
            Remove variable
          </Button>
        )}
      </div>
    </fieldset>
  );
}

const EMPTY_AGENT = {
  name: "",
  description: null,
  kind: "chat" as const,
  system_prompt: null,
  model_config_id: null,
  tools: [],
  http: null,
};
