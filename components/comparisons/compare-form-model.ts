import type { CompareOptions } from "@/lib/comparisons/actions";
import type { VariableDefinition, VariableValue } from "@/lib/agents/schemas";
import type { RunVariablesContext } from "@/lib/presets/schemas";
import { DEFAULT_RETRY, type ComparisonOrdering } from "@/lib/comparisons/schemas";
import { DEFAULT_RUN_CONCURRENCY } from "@/lib/runs/schemas";
import { unreadableMessage } from "@/components/variables/unreadable";

/**
 * The Compare dialog's form model: its values (strings, as the inputs hold them), the defaults
 * from the suite's agent, and the mapping to the request body (executeComparisonInput) — empty
 * fields are left out so an arm keeps the agent's value, and the prompt is sent only when it was
 * changed — plus where the server's issues are shown. Each arm's variables are typed values of its
 * agent's declared variables (the Run dialog's inputs); a number input holding text that is not a
 * number is named in `unreadable` so the form refuses it instead of sending nothing.
 */

export type ArmForm = {
  label: string;
  agent_id: string;
  model_config_id: string;
  system_prompt: string;
  temperature: string;
  max_tokens: string;
  variables: Record<string, VariableValue>;
  /** Variables whose input holds something that is not a value of its type (e.g. "1e" in a number input). */
  unreadable: string[];
};

export type FormValues = {
  name: string;
  notes: string;
  baseline: ArmForm;
  variant: ArmForm;
  ordering: ComparisonOrdering;
  reset_window_ms: string;
  seed: string;
  repetitions: string;
  concurrency: string;
  tags: string[];
  tag_match: "any" | "all";
  difficulty: string;
  retry: { max_attempts: string; initial_delay_ms: string; backoff_factor: string; timeout_ms: string };
};

export type Arm = "baseline" | "variant";
export const ARMS: { key: Arm; title: string }[] = [
  { key: "baseline", title: "Baseline (A)" },
  { key: "variant", title: "Variant (B)" },
];

export const ARM_FIELDS = ["label", "agent_id", "model_config_id", "system_prompt", "temperature", "max_tokens", "variables"] as const;
export const FIELDS = [
  "name",
  "notes",
  ...ARMS.flatMap((a) => ARM_FIELDS.map((f) => `${a.key}.${f}`)),
  "ordering",
  "reset_window_ms",
  "seed",
  "repetitions",
  "concurrency",
  "tags",
  "tag_match",
  "difficulty",
  "retry.max_attempts",
  "retry.initial_delay_ms",
  "retry.backoff_factor",
  "retry.timeout_ms",
];

function emptyArm(options: CompareOptions, label: string): ArmForm {
  const agent = options.agents.find((a) => a.id === options.suite_agent_id);
  return {
    label,
    agent_id: options.suite_agent_id,
    model_config_id: "",
    system_prompt: agent?.system_prompt ?? "",
    temperature: "",
    max_tokens: "",
    variables: {},
    unreadable: [],
  };
}

export function defaults(options: CompareOptions | undefined): FormValues {
  const arm = (label: string): ArmForm =>
    options
      ? emptyArm(options, label)
      : { label, agent_id: "", model_config_id: "", system_prompt: "", temperature: "", max_tokens: "", variables: {}, unreadable: [] };
  return {
    name: "",
    notes: "",
    baseline: arm("Baseline"),
    variant: arm("Variant"),
    ordering: "sequential",
    reset_window_ms: "100",
    seed: "",
    repetitions: "1",
    concurrency: String(DEFAULT_RUN_CONCURRENCY),
    tags: [],
    tag_match: "any",
    difficulty: "",
    retry: {
      max_attempts: String(DEFAULT_RETRY.max_attempts),
      initial_delay_ms: String(DEFAULT_RETRY.initial_delay_ms),
      backoff_factor: String(DEFAULT_RETRY.backoff_factor),
      timeout_ms: String(DEFAULT_RETRY.timeout_ms),
    },
  };
}

export type Issue = { path: string; message: string };

/** "" → undefined; a number → the number; anything else → an issue at the field. */
function numberField(raw: string, path: string, issues: Issue[], opts: { integer?: boolean } = {}): number | undefined {
  const s = raw.trim();
  if (s === "") return undefined;
  const n = Number(s);
  if (!Number.isFinite(n) || (opts.integer && !Number.isInteger(n))) {
    issues.push({ path, message: opts.integer ? "Enter a whole number" : "Enter a number" });
    return undefined;
  }
  return n;
}

/** The request body (executeComparisonInput) from the form, or the client-side issues (numbers, JSON). */
export function toInput(values: FormValues, options: CompareOptions): { input: Record<string, unknown>; issues: Issue[] } {
  const issues: Issue[] = [];
  const arm = (key: Arm) => {
    const a = values[key];
    const agent = options.agents.find((x) => x.id === a.agent_id);
    const definitions = agent?.variables_schema ?? [];
    for (const name of a.unreadable) {
      const def = definitions.find((d) => d.name === name);
      if (def) issues.push({ path: `${key}.variables.${name}`, message: unreadableMessage(def) });
    }
    const variables = declaredValues(a.variables, definitions);
    const promptChanged = agent?.kind === "chat" && a.system_prompt !== (agent.system_prompt ?? "");
    return {
      label: a.label.trim() === "" ? undefined : a.label.trim(),
      agent_id: a.agent_id && a.agent_id !== options.suite_agent_id ? a.agent_id : undefined,
      model_config_id: a.model_config_id || undefined,
      system_prompt: promptChanged ? a.system_prompt : undefined,
      temperature: numberField(a.temperature, `${key}.temperature`, issues),
      max_tokens: numberField(a.max_tokens, `${key}.max_tokens`, issues, { integer: true }),
      variables: Object.keys(variables).length > 0 ? variables : undefined,
    };
  };
  const input: Record<string, unknown> = {
    name: values.name.trim() === "" ? undefined : values.name.trim(),
    notes: values.notes.trim() === "" ? undefined : values.notes,
    baseline: arm("baseline"),
    variant: arm("variant"),
    ordering: values.ordering,
    repetitions: numberField(values.repetitions, "repetitions", issues, { integer: true }),
    concurrency: numberField(values.concurrency, "concurrency", issues, { integer: true }),
    tags: values.tags,
    tag_match: values.tag_match,
    difficulty: values.difficulty || null,
    retry: {
      max_attempts: numberField(values.retry.max_attempts, "retry.max_attempts", issues, { integer: true }),
      initial_delay_ms: numberField(values.retry.initial_delay_ms, "retry.initial_delay_ms", issues, { integer: true }),
      backoff_factor: numberField(values.retry.backoff_factor, "retry.backoff_factor", issues),
      timeout_ms: numberField(values.retry.timeout_ms, "retry.timeout_ms", issues, { integer: true }),
    },
  };
  if (values.ordering === "sequential")
    input.reset_window_ms = numberField(values.reset_window_ms, "reset_window_ms", issues, { integer: true });
  if (values.ordering === "randomized") input.seed = numberField(values.seed, "seed", issues, { integer: true });
  return { input, issues };
}

/**
 * Server issues below a form field (`tags.0`) are shown at that field, with the rest of their path
 * in front of the message; a variable's issue (`baseline.variables.tone`) stays at that variable's input.
 */
export function atFields(issues: Issue[]): Issue[] {
  return issues.map((i) => {
    // The arm's agent cannot run (no model configuration…): shown at the arm's agent select.
    const agent = /^(baseline|variant)\.agent(\.|$)/.exec(i.path);
    if (agent) return { path: `${agent[1]}.agent_id`, message: i.message };
    // A variable's issue stays at that variable: its typed input shows it.
    if (/^(baseline|variant)\.variables\.[^.]+$/.test(i.path)) return i;
    const field = FIELDS.find((f) => i.path.startsWith(`${f}.`));
    return field ? { path: field, message: `${i.path.slice(field.length + 1)}: ${i.message}` } : i;
  });
}

/** The arm fields that differ between baseline and variant (the server refuses two identical arms). */
export function differences(values: FormValues, options: CompareOptions): string[] {
  const b = toInput(values, options).input;
  const [x, y] = [b.baseline as Record<string, unknown>, b.variant as Record<string, unknown>];
  const names: Record<string, string> = {
    agent_id: "agent",
    model_config_id: "model configuration",
    system_prompt: "system prompt",
    temperature: "temperature",
    max_tokens: "max tokens",
    variables: "variables",
  };
  const same = (k: string) => (k === "variables" ? sameValues(x[k], y[k]) : JSON.stringify(x[k] ?? null) === JSON.stringify(y[k] ?? null));
  return Object.keys(names)
    .filter((k) => !same(k))
    .map((k) => names[k]!);
}

/** Two arms' variable values are the same whatever order they were set in. */
function sameValues(a: unknown, b: unknown): boolean {
  const sorted = (v: unknown) =>
    JSON.stringify(Object.entries((v as Record<string, unknown>) ?? {}).sort(([x], [y]) => x.localeCompare(y)));
  return sorted(a) === sorted(b);
}

/** The values of the variables `definitions` declares, in their order (another agent's leftovers are dropped). */
export function declaredValues(values: Record<string, VariableValue>, definitions: VariableDefinition[]): Record<string, VariableValue> {
  const kept: Record<string, VariableValue> = {};
  for (const def of definitions) if (values[def.name] !== undefined) kept[def.name] = values[def.name]!;
  return kept;
}

/** What an arm's typed variable inputs offer: its agent's variables, the suite's values and presets. */
export function armVariablesContext(options: CompareOptions, agentId: string): RunVariablesContext {
  const agent = options.agents.find((a) => a.id === agentId);
  return {
    definitions: agent?.variables_schema ?? [],
    suite_values: options.suite_values,
    presets: options.presets.map((p) => ({ ...p, trials: null })),
  };
}
