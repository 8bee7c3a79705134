import type { VariableDefinition } from "@/lib/agents/schemas";

/**
 * The refusal of a variable input that holds no value of its type (a number box holding "1e": the
 * browser reports it empty), naming the variable. The Run and Compare dialogs refuse such input
 * instead of sending the variable as unset.
 */
export function unreadableMessage(def: VariableDefinition): string {
  const kind =
    def.data_type === "number" ? "a number" : def.data_type === "date" ? "a date" : def.data_type === "boolean" ? "true or false" : "text";
  return `${def.display_name} (${def.name}) must be ${kind}`;
}
