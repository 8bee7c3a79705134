import type { CompareOptions } from "@/lib/comparisons/actions";
import { DEFAULT_RETRY, type ComparisonOrdering } from "@/lib/comparisons/schemas";
import { DEFAULT_RUN_CONCURRENCY } from "@/lib/runs/schemas";

/**
 * The Compare dialog's form model: its values (strings, as the inputs hold them), the defaults
 * from the suite's agent, and the mapping to the request body (executeComparisonInput) — empty
 * fields are left out so an arm keeps the agent's value, and the prompt is sent only when it was
 * changed — plus where the server's issues are shown.
 */

export type ArmForm = {
  label: string;
  agent_id: string;
  model_config_id: string;
  system_prompt: string;
  temperature: string;
  max_tokens: string;
  variables: string;
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
    variables: "",
  };
}

export function defaults(options: CompareOptions | undefined): FormValues {
  const arm = (label: string): ArmForm =>
    options
      ? emptyArm(options, label)
      : { label, agent_id: "", model_config_id: "", system_prompt: "", temperature: "", max_tokens: "", variables: "" };
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
    let variables: Record<string, unknown> | undefined;
    if (a.variables.trim() !== "") {
      let parsed: unknown;
      try {
        parsed = JSON.parse(a.variables);
      } catch {
        parsed = undefined;
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
        issues.push({ path: `${key}.variables`, message: 'Enter a JSON object, e.g. {"tone": "formal"}' });
      } else {
        variables = parsed as Record<string, unknown>;
      }
    }
    const promptChanged = agent?.kind === "chat" && a.system_prompt !== (agent.system_prompt ?? "");
    return {
      label: a.label.trim() === "" ? undefined : a.label.trim(),
      agent_id: a.agent_id && a.agent_id !== options.suite_agent_id ? a.agent_id : undefined,
      model_config_id: a.model_config_id || undefined,
      system_prompt: promptChanged ? a.system_prompt : undefined,
      temperature: numberField(a.temperature, `${key}.temperature`, issues),
      max_tokens: numberField(a.max_tokens, `${key}.max_tokens`, issues, { integer: true }),
      variables,
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
 * Server issues below a form field (`baseline.variables.tone`, `tags.0`) are shown at that field,
 * with the rest of their path in front of the message.
 */
export function atFields(issues: Issue[]): Issue[] {
  return issues.map((i) => {
    // The arm's agent cannot run (no model configuration…): shown at the arm's agent select.
    const agent = /^(baseline|variant)\.agent(\.|$)/.exec(i.path);
    if (agent) return { path: `${agent[1]}.agent_id`, message: i.message };
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
  return Object.keys(names)
    .filter((k) => JSON.stringify(x[k] ?? null) !== JSON.stringify(y[k] ?? null))
    .map((k) => names[k]!);
}
