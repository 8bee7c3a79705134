"use client";
import { Input, Select } from "@/components/ui/field";
import type { VariableDefinition, VariableValue } from "@/lib/agents/schemas";

type PossibleValue = VariableDefinition["possible_values"][number];

/**
 * One value of a declared variable (the variables model), typed by the variable's definition: a select of the possible values for a
 * static variable (`allowed` narrows them, e.g. to a case's restricted values), a number input,
 * a checkbox for true/false, a date input, or text. `undefined` means "not set"; a set checkbox
 * can be cleared again. A number input holding text that is no number ("1e", "1.2.3") also reads
 * as "not set", so `onUnreadable` tells the form, which can refuse it instead of sending nothing.
 */
export function VariableValueInput({
  id,
  def,
  value,
  onChange,
  allowed,
  invalid,
  disabled,
  describedBy,
  label,
  onUnreadable,
}: {
  id: string;
  def: VariableDefinition;
  value: VariableValue | undefined;
  onChange: (v: VariableValue | undefined) => void;
  allowed?: VariableValue[] | null;
  invalid?: boolean;
  disabled?: boolean;
  describedBy?: string;
  /** Accessible name when the input has no <label for> of its own (the checkbox's text). */
  label?: string;
  /** Told on every edit of a number input whether it holds text that is not a number. */
  onUnreadable?: (unreadable: boolean) => void;
}) {
  const common = { id, disabled, "aria-invalid": invalid || undefined, "aria-describedby": describedBy };
  if (def.value_source === "static" && def.possible_values.length > 0) {
    return (
      <StaticValueSelect
        {...common}
        def={def}
        value={value}
        onChange={onChange}
        allowed={allowed}
        optionLabel={(pv) => (pv.label ? `${pv.label} (${String(pv.value)})` : String(pv.value))}
      />
    );
  }
  switch (def.data_type) {
    case "boolean":
      return (
        <span className="flex h-9 items-center gap-3 text-sm">
          <label className="inline-flex items-center gap-1.5">
            <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} aria-label={label} />
            {value === undefined ? "not set" : String(value)}
          </label>
          {value !== undefined && !disabled && (
            <button type="button" className="text-xs text-slate-600 hover:underline" onClick={() => onChange(undefined)}>
              Clear
            </button>
          )}
        </span>
      );
    case "number":
      return (
        <Input
          {...common}
          type="number"
          step="any"
          inputMode="decimal"
          value={value === undefined ? "" : String(value)}
          onChange={(e) => {
            onUnreadable?.(e.target.validity.badInput);
            onChange(e.target.value === "" || Number.isNaN(Number(e.target.value)) ? undefined : Number(e.target.value));
          }}
        />
      );
    case "date":
      return (
        <Input
          {...common}
          type="date"
          value={typeof value === "string" ? value.slice(0, 10) : ""}
          onChange={(e) => onChange(e.target.value || undefined)}
        />
      );
    default:
      return (
        <Input
          {...common}
          value={value === undefined ? "" : String(value)}
          onChange={(e) => onChange(e.target.value === "" ? undefined : e.target.value)}
        />
      );
  }
}

/**
 * A static variable's select: "(not set)" then its possible values (`allowed` narrows them),
 * addressed by index so numbers and booleans keep their type.
 */
export function StaticValueSelect({
  def,
  value,
  onChange,
  allowed,
  optionLabel,
  ...selectProps
}: {
  def: VariableDefinition;
  value: VariableValue | undefined;
  onChange: (v: VariableValue | undefined) => void;
  allowed?: VariableValue[] | null;
  optionLabel: (pv: PossibleValue) => string;
} & Omit<React.ComponentProps<"select">, "value" | "onChange">) {
  const index = def.possible_values.findIndex((pv) => pv.value === value);
  return (
    <Select
      {...selectProps}
      value={index >= 0 ? String(index) : ""}
      onChange={(e) => onChange(e.target.value === "" ? undefined : def.possible_values[Number(e.target.value)]?.value)}
    >
      <option value="">(not set)</option>
      {def.possible_values.map((pv, i) =>
        !allowed || allowed.includes(pv.value) ? (
          <option key={i} value={i}>
            {optionLabel(pv)}
          </option>
        ) : null,
      )}
    </Select>
  );
}
