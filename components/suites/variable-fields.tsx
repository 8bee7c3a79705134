"use client";
import { Field, Input, Select } from "@/components/ui/field";
import type { VariableDefinition, VariableValue } from "@/lib/agents/schemas";
import { StaticValueSelect, VariableValueInput } from "@/components/variables/variable-value-input";

type Values = Record<string, VariableValue>;

/**
 * Suite-level values (the variables model) for the agent's declared variables: a select for static
 * variables, a typed input for freeform ones. An empty field means "no suite value" (the
 * test, run or default value applies), so its key is left out.
 */
export function VariableFields({
  definitions,
  value,
  onChange,
  errors,
  disabled,
}: {
  definitions: VariableDefinition[];
  value: Values;
  onChange: (next: Values) => void;
  errors: Record<string, string | undefined>;
  disabled?: boolean;
}) {
  const set = (name: string, v: VariableValue | undefined) => {
    const next = { ...value };
    if (v === undefined) delete next[name];
    else next[name] = v;
    onChange(next);
  };
  // Values the agent no longer declares: shown so they can be removed (the server refuses them).
  const stale = Object.keys(value).filter((k) => !definitions.some((d) => d.name === k));

  if (definitions.length === 0 && stale.length === 0) {
    return <p className="text-sm text-slate-500">This agent declares no variables.</p>;
  }
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {definitions.map((d) => {
        const id = `var-${d.name}`;
        const current = value[d.name];
        const hint = [
          d.description,
          d.default_value !== null ? `Default: ${String(d.default_value)}` : null,
          d.required ? "Required at run time" : null,
        ]
          .filter(Boolean)
          .join(" · ");
        return (
          <Field key={d.name} id={id} label={d.display_name} hint={hint || undefined} error={errors[d.name]}>
            <VariableInput
              id={id}
              def={d}
              current={current}
              invalid={!!errors[d.name]}
              disabled={disabled}
              onValue={(v) => set(d.name, v)}
            />
          </Field>
        );
      })}
      {stale.map((name) => (
        <Field key={name} id={`var-${name}`} label={name} error={errors[name] ?? "The agent no longer declares this variable"}>
          <div className="flex items-center gap-2">
            <Input id={`var-${name}`} value={String(value[name])} readOnly aria-invalid />
            {!disabled && (
              <button type="button" className="text-xs text-red-700 hover:underline" onClick={() => set(name, undefined)}>
                Remove
              </button>
            )}
          </div>
        </Field>
      ))}
    </div>
  );
}

function VariableInput({
  id,
  def,
  current,
  invalid,
  disabled,
  onValue,
}: {
  id: string;
  def: VariableDefinition;
  current: VariableValue | undefined;
  invalid: boolean;
  disabled?: boolean;
  onValue: (v: VariableValue | undefined) => void;
}) {
  const common = { id, disabled, "aria-invalid": invalid || undefined };
  if (def.value_source === "static") {
    return (
      <StaticValueSelect {...common} def={def} value={current} onChange={onValue} optionLabel={(pv) => pv.label ?? String(pv.value)} />
    );
  }
  switch (def.data_type) {
    case "boolean":
      return (
        <Select
          {...common}
          value={current === undefined ? "" : String(current)}
          onChange={(e) => onValue(e.target.value === "" ? undefined : e.target.value === "true")}
        >
          <option value="">(not set)</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </Select>
      );
    case "number":
      return (
        <Input
          {...common}
          type="number"
          step="any"
          value={current === undefined ? "" : String(current)}
          onChange={(e) => onValue(e.target.value === "" ? undefined : Number(e.target.value))}
        />
      );
    default:
      // Dates and text are entered as on the run dialog.
      return <VariableValueInput id={id} def={def} value={current} onChange={onValue} invalid={invalid} disabled={disabled} />;
  }
}
