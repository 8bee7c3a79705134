"use client";
import { useId } from "react";
import { NamedOptions, Select } from "@/components/ui/field";
import type { VariableDefinition, VariableValue } from "@/lib/agents/schemas";
import type { RunVariablesContext } from "@/lib/presets/schemas";
import type { TestCaseVariables } from "@/lib/test-cases/variables";
import { VariableValueInput } from "./variable-value-input";
import { SourceBadge, formatVariableValue } from "./source-badge";

type Values = Record<string, VariableValue>;
type Source = "run" | "suite" | "test" | "type";

/**
 * The value a variable would resolve to and its source, following the variables model (run > suite > test >
 * type; a value the case locks wins). Without a case (a suite run) the test level is left out:
 * each case may still lock or default its own value.
 */
export function previewVariable(
  def: VariableDefinition,
  suiteValues: Values,
  runValues: Values,
  caseConfig?: TestCaseVariables,
): { value: VariableValue; source: Source } | null {
  const o = caseConfig?.[def.name];
  if (o?.locked) {
    const locked = o.default_value ?? def.default_value;
    return locked === null ? null : { value: locked, source: "test" };
  }
  if (runValues[def.name] !== undefined) return { value: runValues[def.name]!, source: "run" };
  if (suiteValues[def.name] !== undefined) return { value: suiteValues[def.name]!, source: "suite" };
  if (o?.default_value != null) return { value: o.default_value, source: "test" };
  if (def.default_value !== null) return { value: def.default_value, source: "type" };
  return null;
}

/**
 * Run-level variable values (the variables model) as typed inputs, one per variable the run can set (for a
 * single case: the ones it exposes), each with the value it would resolve to and its source;
 * a preset select fills the inputs with the preset's values.
 */
export function RunVariablesFields({
  context,
  value,
  onChange,
  errors,
  caseConfig,
  disabled,
  onPreset,
  onUnreadable,
}: {
  context: RunVariablesContext;
  value: Values;
  onChange: (next: Values) => void;
  /** Messages by variable name (server issues at `variables.NAME`). */
  errors?: Record<string, string | undefined>;
  /** A single case's own configuration: unexposed variables are hidden, locked ones shown read-only. */
  caseConfig?: TestCaseVariables;
  disabled?: boolean;
  /** Told which preset was chosen (the run dialog takes its trials too). */
  onPreset?: (preset: RunVariablesContext["presets"][number]) => void;
  /** Told when a variable's input starts or stops holding text that is no value of its type. */
  onUnreadable?: (name: string, unreadable: boolean) => void;
}) {
  const uid = useId();
  const shown = context.definitions.filter((d) => caseConfig?.[d.name]?.exposed !== false);
  if (shown.length === 0) return null;
  const set = (name: string, v: VariableValue | undefined) => {
    const next = { ...value };
    if (v === undefined) delete next[name];
    else next[name] = v;
    onChange(next);
  };
  const applyPreset = (id: string) => {
    const preset = context.presets.find((p) => p.id === id);
    if (!preset) return;
    const known = new Set(shown.filter((d) => !caseConfig?.[d.name]?.locked).map((d) => d.name));
    onChange(Object.fromEntries(Object.entries(preset.values).filter(([k]) => known.has(k))));
    onPreset?.(preset);
  };

  return (
    <fieldset className="space-y-3" disabled={disabled}>
      <legend className="text-sm font-medium text-slate-700">Variables</legend>
      <p className="text-xs text-slate-500">
        Leave a value empty to use the suite&apos;s value or the default{caseConfig ? "" : "; a case may lock or default its own value"}.
      </p>
      {context.presets.length > 0 && (
        <div className="space-y-1">
          <label htmlFor={`${uid}-preset`} className="block text-sm font-medium text-slate-700">
            Preset
          </label>
          <Select id={`${uid}-preset`} defaultValue="" onChange={(e) => applyPreset(e.target.value)}>
            <NamedOptions items={context.presets} none="Choose a preset to fill the values…" />
          </Select>
        </div>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        {shown.map((def) => {
          const id = `${uid}-var-${def.name}`;
          const o = caseConfig?.[def.name];
          const resolved = previewVariable(def, context.suite_values, value, caseConfig);
          const error = errors?.[def.name];
          return (
            <div key={def.name} className="space-y-1">
              <label htmlFor={id} className="block text-sm font-medium text-slate-700">
                {def.display_name} <span className="font-mono text-xs font-normal text-slate-500">{def.name}</span>
              </label>
              <VariableValueInput
                id={id}
                def={def}
                value={o?.locked ? undefined : value[def.name]}
                onChange={(v) => set(def.name, v)}
                allowed={o?.restricted_values}
                invalid={Boolean(error)}
                disabled={disabled || o?.locked}
                describedBy={error ? `${id}-resolved ${id}-error` : `${id}-resolved`}
                label={def.display_name}
                onUnreadable={onUnreadable && ((bad) => onUnreadable(def.name, bad))}
              />
              <p
                id={`${id}-resolved`}
                className="flex flex-wrap items-center gap-1 text-xs text-slate-600"
                data-testid={`resolves-${def.name}`}
              >
                {resolved ? (
                  <>
                    {o?.locked ? "Locked by the case:" : "Resolves to"}{" "}
                    <span className="font-medium">{formatVariableValue(resolved.value)}</span>
                    <SourceBadge source={resolved.source} />
                  </>
                ) : def.required ? (
                  <span className="text-amber-700">Required: no value yet</span>
                ) : (
                  "No value"
                )}
              </p>
              {error && (
                <p id={`${id}-error`} className="text-xs text-red-600">
                  {error}
                </p>
              )}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
