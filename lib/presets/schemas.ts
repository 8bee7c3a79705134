import { z } from "zod";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import { trialsInput } from "@/lib/runs/schemas";
import type { VariableDefinition, VariableValue } from "@/lib/agents/schemas";

/**
 * The variables model "variable profiles/presets": a named set of run-level variable values of a
 * suite. The values are checked against the suite agent's definitions by the service, like a
 * run's `variables`.
 */
const presetValues = z
  .record(
    z.string().max(TEXT_LIMITS.identifier),
    z.union([z.string().max(TEXT_LIMITS.description), z.number(), z.boolean()], { error: "Values are text, numbers or true/false" }),
    { error: "Values must be an object of variable name → value" },
  )
  .refine((v) => Object.keys(v).length <= 100, "At most 100 values");

export const presetInput = z
  .object({
    name: z
      .string({ error: "Name is required" })
      .trim()
      .min(1, "Name is required")
      .max(TEXT_LIMITS.shortName, `Use at most ${TEXT_LIMITS.shortName} characters`),
    values: presetValues.default({}),
    /** Trials per case of a run started with this preset that does not say (null: the suite's default_trials). */
    trials: trialsInput.nullish().transform((v) => v ?? null),
  })
  .strict();
export type PresetInput = z.input<typeof presetInput>;
export type PresetData = z.output<typeof presetInput>;

/** PATCH: the name, the values (replacing the stored ones) or both. */
export const presetPatch = presetInput.partial().strict();
export type PresetPatch = z.output<typeof presetPatch>;

/**
 * What the run, single-case and comparison dialogs need to offer typed variable inputs: the
 * agent's definitions, the suite's values and the suite's presets.
 */
export type RunVariablesContext = {
  definitions: VariableDefinition[];
  suite_values: Record<string, VariableValue>;
  presets: { id: string; name: string; values: Record<string, VariableValue>; trials: number | null }[];
};
