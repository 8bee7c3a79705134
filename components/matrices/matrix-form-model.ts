import type { VariableDefinition, VariableValue } from "@/lib/agents/schemas";
import type { MatrixOptions } from "@/lib/matrices/actions";
import { combinationCount } from "@/lib/matrices/combinations";

/**
 * The Matrix dialog's form model (pure): one axis per chosen variable, its values picked from
 * checkboxes (static possible values, booleans, model configuration names for AIConfiguration)
 * or typed comma-separated (freeform), and the request body built from it. The server validates
 * (createMatrixInput + every combination as a run); the dialog only counts.
 */

/** The variable that selects the model configuration by name (the variables model; lib/runs/service.ts). */
export const MODEL_VARIABLE = "AIConfiguration";

export type AxisState = { key: number; name: string; selected: string[]; text: string };

export type AxisChoice = { key: string; value: VariableValue; label: string };

/** Checkbox choices for a variable, or null when its values are typed. */
export function choicesFor(def: VariableDefinition | undefined, options: MatrixOptions): AxisChoice[] | null {
  if (!def) return null;
  const choice = (value: VariableValue, label?: string | null): AxisChoice => ({
    key: JSON.stringify(value),
    value,
    label: label || String(value),
  });
  if (def.value_source === "static" && def.possible_values.length > 0) return def.possible_values.map((pv) => choice(pv.value, pv.label));
  if (def.data_type === "boolean") return [choice(true), choice(false)];
  if (def.name === MODEL_VARIABLE && def.data_type === "string" && options.model_configs.length > 0) {
    return options.model_configs.map((m) => choice(m.name, m.name === m.model ? m.name : `${m.name} (${m.model})`));
  }
  return null;
}

/** A typed value in the variable's type: numbers as numbers (a non-number stays text, so the server names it). */
function parseTyped(def: VariableDefinition, text: string): VariableValue {
  if (def.data_type === "number") {
    const n = Number(text);
    return text !== "" && Number.isFinite(n) ? n : text;
  }
  if (def.data_type === "boolean" && (text === "true" || text === "false")) return text === "true";
  return text;
}

/** The axis's values in the order shown (checkbox order, or as typed, without duplicates). */
export function axisValues(axis: AxisState, def: VariableDefinition | undefined, options: MatrixOptions): VariableValue[] {
  if (!def) return [];
  const choices = choicesFor(def, options);
  if (choices) return choices.filter((c) => axis.selected.includes(c.key)).map((c) => c.value);
  const seen = new Set<string>();
  const out: VariableValue[] = [];
  for (const part of axis.text.split(",")) {
    const text = part.trim();
    if (text === "") continue;
    const value = parseTyped(def, text);
    const key = JSON.stringify(value);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(value);
    }
  }
  return out;
}

/** `{NAME: [values]}` in axis order (axes without a variable are left out). */
export function axesOf(axes: AxisState[], options: MatrixOptions): Record<string, VariableValue[]> {
  const out: Record<string, VariableValue[]> = {};
  for (const axis of axes) {
    const def = options.variables.find((d) => d.name === axis.name);
    if (def) out[axis.name] = axisValues(axis, def, options);
  }
  return out;
}

export { combinationCount };
