import type { VariableDefinition } from "@/lib/agents/schemas";

/**
 * The variables model "Agent Eval test type variables schema": AIConfiguration (static; its possible
 * values are the workspace's model configuration names, which the run uses to pick the agent's
 * model configuration), Temperature (default 0.7) and MaxTokens, none required.
 */
export function agentEvalVariableSet(modelConfigs: { name: string; model: string }[]): VariableDefinition[] {
  const set: VariableDefinition[] = [];
  if (modelConfigs.length > 0) {
    set.push({
      name: "AIConfiguration",
      display_name: "AI Configuration",
      description: "Which AI configuration to use for the agent (controls model, provider, etc.)",
      data_type: "string",
      value_source: "static",
      possible_values: modelConfigs.map((c) => ({ value: c.name, label: c.name, description: `Model ${c.model}` })),
      default_value: null,
      required: false,
    });
  }
  set.push(
    {
      name: "Temperature",
      display_name: "Temperature",
      description: "LLM temperature setting (0.0 = deterministic, 1.0 = creative)",
      data_type: "number",
      value_source: "freeform",
      possible_values: [],
      default_value: 0.7,
      required: false,
    },
    {
      name: "MaxTokens",
      display_name: "Max Tokens",
      description: "Maximum output tokens for the LLM response",
      data_type: "number",
      value_source: "freeform",
      possible_values: [],
      default_value: null,
      required: false,
    },
  );
  return set;
}
