"use client";
import { useId, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useForm, type Path, type UseFormReturn } from "react-hook-form";
import { compareOptionsAction, countComparisonCasesAction, createComparisonAction, type CompareOptions } from "@/lib/comparisons/actions";
import {
  COMPARISON_ORDERINGS,
  DEFAULT_RETRY,
  MAX_REPETITIONS,
  MAX_RESET_WINDOW_MS,
  type ComparisonOrdering,
} from "@/lib/comparisons/schemas";
import { DEFAULT_RUN_CONCURRENCY, MAX_RUN_CONCURRENCY } from "@/lib/runs/schemas";
import { DIFFICULTIES } from "@/lib/test-cases/schemas";
import { applyServerIssues } from "@/components/forms/server-issues";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input, Select, Textarea } from "@/components/ui/field";
import { ORDERING_LABELS } from "./format";
import { PromptDiff } from "./prompt-diff";

/**
 * "Compare": a dialog that builds the two arms of an A/B comparison side by side (agent, model
 * configuration, system prompt with a diff marker, temperature, max tokens, variables), the
 * ordering, repetitions, concurrency and case filters, shows the case count and the estimated
 * agent calls, then creates the comparison and opens its page. The server validates
 * (executeComparisonInput); its issues are shown at their fields.
 */

type ArmForm = {
  label: string;
  agent_id: string;
  model_config_id: string;
  system_prompt: string;
  temperature: string;
  max_tokens: string;
  variables: string;
};

type FormValues = {
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

type Arm = "baseline" | "variant";
const ARMS: { key: Arm; title: string }[] = [
  { key: "baseline", title: "Baseline (A)" },
  { key: "variant", title: "Variant (B)" },
];

const ARM_FIELDS = ["label", "agent_id", "model_config_id", "system_prompt", "temperature", "max_tokens", "variables"] as const;
const FIELDS = [
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

function defaults(options: CompareOptions | undefined): FormValues {
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

type Issue = { path: string; message: string };

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
function toInput(values: FormValues, options: CompareOptions): { input: Record<string, unknown>; issues: Issue[] } {
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
function atFields(issues: Issue[]): Issue[] {
  return issues.map((i) => {
    // The arm's agent cannot run (no model configuration…): shown at the arm's agent select.
    const agent = /^(baseline|variant)\.agent(\.|$)/.exec(i.path);
    if (agent) return { path: `${agent[1]}.agent_id`, message: i.message };
    const field = FIELDS.find((f) => i.path.startsWith(`${f}.`));
    return field ? { path: field, message: `${i.path.slice(field.length + 1)}: ${i.message}` } : i;
  });
}

/** The arm fields that differ between baseline and variant (the server refuses two identical arms). */
function differences(values: FormValues, options: CompareOptions): string[] {
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

export function CompareButton({ workspaceId, suiteId }: { workspaceId: string; suiteId: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [opened, setOpened] = useState(false);
  const uid = useId();
  const options = useQuery({
    queryKey: ["compare-options", workspaceId, suiteId],
    queryFn: async () => {
      const result = await compareOptionsAction(workspaceId, { suite_id: suiteId });
      if (!result.ok) throw new Error(result.error);
      return result.data;
    },
    enabled: opened,
    staleTime: 30_000,
  });

  const open = () => {
    setOpened(true);
    ref.current?.showModal();
  };
  const close = () => ref.current?.close();

  return (
    <>
      <Button variant="secondary" onClick={open}>
        Compare
      </Button>
      <dialog
        ref={ref}
        aria-labelledby={`${uid}-title`}
        className="m-auto max-h-[92vh] w-full max-w-5xl overflow-y-auto rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <div className="p-5">
          <h2 id={`${uid}-title`} className="text-base font-semibold">
            New A/B comparison
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Runs the selected cases under two configurations and compares pass rate, latency and tokens pair by pair.
          </p>
        </div>
        {options.isError ? (
          <div className="space-y-3 px-5 pb-5">
            <FormError message={`The comparison options could not be loaded: ${options.error.message}`} />
            <Button variant="secondary" onClick={close}>
              Close
            </Button>
          </div>
        ) : !options.data ? (
          <p className="px-5 pb-5 text-sm text-slate-600" aria-busy="true">
            Loading agents and model configurations…
          </p>
        ) : (
          <CompareForm workspaceId={workspaceId} suiteId={suiteId} options={options.data} onCancel={close} />
        )}
      </dialog>
    </>
  );
}

function CompareForm({
  workspaceId,
  suiteId,
  options,
  onCancel,
}: {
  workspaceId: string;
  suiteId: string;
  options: CompareOptions;
  onCancel: () => void;
}) {
  const router = useRouter();
  const uid = useId();
  const id = (name: string) => `${uid}-${name.replace(/\./g, "-")}`;
  const [formError, setFormError] = useState<string | null>(null);
  const [otherIssues, setOtherIssues] = useState<Issue[]>([]);
  const form = useForm<FormValues>({ defaultValues: defaults(options) });
  const { errors, isSubmitting } = form.formState;
  const values = form.watch();

  const count = useQuery({
    queryKey: ["compare-case-count", workspaceId, suiteId, values.tags.join("\u0000"), values.tag_match, values.difficulty],
    queryFn: async () => {
      const result = await countComparisonCasesAction(workspaceId, {
        suite_id: suiteId,
        tags: values.tags,
        tag_match: values.tag_match,
        difficulty: (values.difficulty || null) as (typeof DIFFICULTIES)[number] | null,
      });
      if (!result.ok) throw new Error(result.error);
      return result.data;
    },
    staleTime: 10_000,
  });
  const repetitions = Number(values.repetitions);
  const validRepetitions = Number.isInteger(repetitions) && repetitions >= 1 && repetitions <= MAX_REPETITIONS;
  const differ = differences(values, options);

  const errorAt = (path: string): string | undefined => {
    const parts = path.split(".");
    let node: unknown = errors;
    for (const p of parts) node = (node as Record<string, unknown> | undefined)?.[p];
    return (node as { message?: string } | undefined)?.message;
  };

  const onSubmit = form.handleSubmit(async (v) => {
    setFormError(null);
    setOtherIssues([]);
    form.clearErrors();
    const { input, issues } = toInput(v, options);
    if (issues.length > 0) {
      applyServerIssues(form.setError, issues);
      setFormError("Please fix the highlighted fields");
      return;
    }
    const result = await createComparisonAction(workspaceId, { suite_id: suiteId, input });
    if (!result.ok) {
      const rest = applyServerIssues(form.setError, atFields(result.issues), FIELDS);
      setFormError(result.error);
      setOtherIssues(rest);
      return;
    }
    router.push(`/w/${workspaceId}/comparisons/${result.data.id}`);
  });

  const toggleTag = (tag: string) =>
    form.setValue("tags", values.tags.includes(tag) ? values.tags.filter((t) => t !== tag) : [...values.tags, tag], { shouldDirty: true });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5 px-5 pb-5">
      <fieldset disabled={isSubmitting} className="space-y-5">
        <div className="grid gap-4 md:grid-cols-2">
          <Field id={id("name")} label="Name (optional)" error={errorAt("name")}>
            <Input
              id={id("name")}
              {...form.register("name")}
              aria-invalid={Boolean(errorAt("name"))}
              placeholder="e.g. Shorter prompt vs current"
            />
          </Field>
          <Field id={id("notes")} label="Notes (optional)" error={errorAt("notes")}>
            <Input id={id("notes")} {...form.register("notes")} aria-invalid={Boolean(errorAt("notes"))} />
          </Field>
        </div>

        <div className="grid gap-4 md:grid-cols-2">
          {ARMS.map((arm) => (
            <ArmFields key={arm.key} arm={arm.key} title={arm.title} form={form} options={options} id={id} errorAt={errorAt} />
          ))}
        </div>
        <p className="text-xs text-slate-600" data-testid="arm-differences">
          {differ.length === 0 ? (
            <span className="text-amber-700">The two arms are identical: change at least one field of the variant.</span>
          ) : (
            <>Variant differs in: {differ.join(", ")}.</>
          )}
        </p>

        <fieldset className="space-y-3 rounded-md border border-slate-200 p-4">
          <legend className="px-1 text-sm font-semibold text-slate-800">Execution</legend>
          <div className="grid gap-4 md:grid-cols-4">
            <Field id={id("ordering")} label="Ordering" error={errorAt("ordering")} className="md:col-span-2">
              <Select id={id("ordering")} {...form.register("ordering")}>
                {COMPARISON_ORDERINGS.map((o) => (
                  <option key={o} value={o}>
                    {ORDERING_LABELS[o]}
                  </option>
                ))}
              </Select>
            </Field>
            {values.ordering === "sequential" && (
              <Field
                id={id("reset_window_ms")}
                label="Reset window (ms)"
                hint={`Pause between the arms, 0–${MAX_RESET_WINDOW_MS}`}
                error={errorAt("reset_window_ms")}
              >
                <Input
                  id={id("reset_window_ms")}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={MAX_RESET_WINDOW_MS}
                  {...form.register("reset_window_ms")}
                  aria-invalid={Boolean(errorAt("reset_window_ms"))}
                />
              </Field>
            )}
            {values.ordering === "randomized" && (
              <Field id={id("seed")} label="Seed (optional)" hint="Same seed → same orders" error={errorAt("seed")}>
                <Input
                  id={id("seed")}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  {...form.register("seed")}
                  aria-invalid={Boolean(errorAt("seed"))}
                />
              </Field>
            )}
          </div>
          <div className="grid gap-4 md:grid-cols-4">
            <Field
              id={id("repetitions")}
              label="Repetitions"
              hint={`Per case and arm, 1–${MAX_REPETITIONS}`}
              error={errorAt("repetitions")}
            >
              <Input
                id={id("repetitions")}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_REPETITIONS}
                {...form.register("repetitions")}
                aria-invalid={Boolean(errorAt("repetitions"))}
              />
            </Field>
            <Field
              id={id("concurrency")}
              label="Concurrency"
              hint={`Pairs at once, 1–${MAX_RUN_CONCURRENCY}`}
              error={errorAt("concurrency")}
            >
              <Input
                id={id("concurrency")}
                type="number"
                inputMode="numeric"
                min={1}
                max={MAX_RUN_CONCURRENCY}
                {...form.register("concurrency")}
                aria-invalid={Boolean(errorAt("concurrency"))}
              />
            </Field>
          </div>
          <details className="text-sm">
            <summary className="cursor-pointer text-slate-700">Retry policy (agent calls)</summary>
            <div className="mt-3 grid gap-4 md:grid-cols-4">
              <Field id={id("retry.max_attempts")} label="Max attempts" error={errorAt("retry.max_attempts")}>
                <Input id={id("retry.max_attempts")} type="number" inputMode="numeric" {...form.register("retry.max_attempts")} />
              </Field>
              <Field id={id("retry.initial_delay_ms")} label="Initial delay (ms)" error={errorAt("retry.initial_delay_ms")}>
                <Input id={id("retry.initial_delay_ms")} type="number" inputMode="numeric" {...form.register("retry.initial_delay_ms")} />
              </Field>
              <Field id={id("retry.backoff_factor")} label="Backoff factor" error={errorAt("retry.backoff_factor")}>
                <Input
                  id={id("retry.backoff_factor")}
                  type="number"
                  inputMode="decimal"
                  step="0.5"
                  {...form.register("retry.backoff_factor")}
                />
              </Field>
              <Field id={id("retry.timeout_ms")} label="Timeout (ms)" error={errorAt("retry.timeout_ms")}>
                <Input id={id("retry.timeout_ms")} type="number" inputMode="numeric" {...form.register("retry.timeout_ms")} />
              </Field>
            </div>
          </details>
        </fieldset>

        <fieldset className="space-y-3 rounded-md border border-slate-200 p-4">
          <legend className="px-1 text-sm font-semibold text-slate-800">Cases</legend>
          <div role="group" aria-label="Tags" className="space-y-2">
            <p className="text-sm font-medium text-slate-700">Tags</p>
            {options.tags.length === 0 ? (
              <p className="text-xs text-slate-500">This suite&apos;s cases have no tags.</p>
            ) : (
              <div className="flex max-h-28 flex-wrap gap-x-4 gap-y-1 overflow-y-auto rounded-md border border-slate-200 p-2">
                {options.tags.map((tag) => (
                  <label key={tag} className="inline-flex items-center gap-1.5 text-sm">
                    <input type="checkbox" checked={values.tags.includes(tag)} onChange={() => toggleTag(tag)} />
                    {tag}
                  </label>
                ))}
              </div>
            )}
            {values.tags.length > 1 && (
              <div className="flex gap-4 text-sm" role="radiogroup" aria-label="Tag match">
                <label className="inline-flex items-center gap-1.5">
                  <input type="radio" value="any" {...form.register("tag_match")} />
                  Any of these tags
                </label>
                <label className="inline-flex items-center gap-1.5">
                  <input type="radio" value="all" {...form.register("tag_match")} />
                  All of these tags
                </label>
              </div>
            )}
            {(errorAt("tags") ?? errorAt("case_ids")) && <p className="text-xs text-red-600">{errorAt("tags") ?? errorAt("case_ids")}</p>}
          </div>
          <div className="grid gap-4 md:grid-cols-4">
            <Field id={id("difficulty")} label="Difficulty" error={errorAt("difficulty")}>
              <Select id={id("difficulty")} {...form.register("difficulty")}>
                <option value="">Any difficulty</option>
                {DIFFICULTIES.map((d) => (
                  <option key={d} value={d}>
                    {d[0]!.toUpperCase() + d.slice(1)}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-800" data-testid="compare-estimate" aria-live="polite">
            {count.isError ? (
              "The case count could not be loaded."
            ) : count.data === undefined ? (
              "Counting cases…"
            ) : count.data === 0 ? (
              <span className="text-amber-800">No active test case matches this selection.</span>
            ) : (
              <>
                <span className="font-medium">{count.data}</span> active {count.data === 1 ? "case" : "cases"} ×{" "}
                {validRepetitions ? repetitions : "?"} {repetitions === 1 ? "repetition" : "repetitions"} × 2 arms ={" "}
                <span className="font-semibold">{validRepetitions ? (count.data * repetitions * 2).toLocaleString("en-US") : "?"}</span>{" "}
                estimated agent calls
              </>
            )}
          </p>
        </fieldset>

        <FormError message={formError} />
        {otherIssues.length > 0 && (
          <ul className="list-disc pl-5 text-xs text-red-600">
            {otherIssues.map((i) => (
              <li key={`${i.path}-${i.message}`}>
                {i.path ? `${i.path}: ` : ""}
                {i.message}
              </li>
            ))}
          </ul>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit">{isSubmitting ? "Starting…" : "Start comparison"}</Button>
        </div>
      </fieldset>
    </form>
  );
}

function ArmFields({
  arm,
  title,
  form,
  options,
  id,
  errorAt,
}: {
  arm: Arm;
  title: string;
  form: UseFormReturn<FormValues>;
  options: CompareOptions;
  id: (name: string) => string;
  errorAt: (path: string) => string | undefined;
}) {
  const values = form.watch(arm);
  const agent = options.agents.find((a) => a.id === values.agent_id);
  const modelConfig = options.model_configs.find((m) => m.id === agent?.model_config_id);
  const f = (name: (typeof ARM_FIELDS)[number]) => `${arm}.${name}` as Path<FormValues>;
  const variableNames = agent?.variables_schema.map((v) => v.name) ?? [];

  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-4">
      <legend className="px-1 text-sm font-semibold text-slate-800">{title}</legend>
      <Field id={id(f("label"))} label="Label" error={errorAt(f("label"))}>
        <Input id={id(f("label"))} {...form.register(f("label"))} aria-invalid={Boolean(errorAt(f("label")))} />
      </Field>
      <Field id={id(f("agent_id"))} label="Agent" error={errorAt(f("agent_id"))}>
        <Select
          id={id(f("agent_id"))}
          {...form.register(f("agent_id"), {
            onChange: (e: React.ChangeEvent<HTMLSelectElement>) => {
              const next = options.agents.find((a) => a.id === e.target.value);
              form.setValue(f("system_prompt"), next?.system_prompt ?? "");
              form.setValue(f("model_config_id"), "");
            },
          })}
          aria-invalid={Boolean(errorAt(f("agent_id")))}
        >
          {options.agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
              {a.id === options.suite_agent_id ? " (suite's agent)" : ""}
            </option>
          ))}
        </Select>
      </Field>
      <Field id={id(f("model_config_id"))} label="Model configuration" error={errorAt(f("model_config_id"))}>
        <Select
          id={id(f("model_config_id"))}
          {...form.register(f("model_config_id"))}
          aria-invalid={Boolean(errorAt(f("model_config_id")))}
        >
          <option value="">Agent&apos;s own{modelConfig ? ` (${modelConfig.name} · ${modelConfig.model})` : ""}</option>
          {options.model_configs.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name} · {m.model}
            </option>
          ))}
        </Select>
      </Field>
      <Field
        id={id(f("system_prompt"))}
        label="System prompt"
        hint={agent?.kind === "http" ? "An HTTP agent has no system prompt." : "Prefilled with the agent's prompt."}
        error={errorAt(f("system_prompt"))}
      >
        <Textarea
          id={id(f("system_prompt"))}
          rows={6}
          className="font-mono text-xs"
          disabled={agent?.kind === "http"}
          {...form.register(f("system_prompt"))}
          aria-invalid={Boolean(errorAt(f("system_prompt")))}
        />
      </Field>
      {agent?.kind === "chat" && <PromptDiff original={agent.system_prompt ?? ""} current={values.system_prompt} />}
      <div className="grid grid-cols-2 gap-3">
        <Field id={id(f("temperature"))} label="Temperature" hint="Empty: the model's default" error={errorAt(f("temperature"))}>
          <Input
            id={id(f("temperature"))}
            type="number"
            inputMode="decimal"
            step="0.1"
            min={0}
            max={2}
            {...form.register(f("temperature"))}
            aria-invalid={Boolean(errorAt(f("temperature")))}
          />
        </Field>
        <Field id={id(f("max_tokens"))} label="Max tokens" hint="Empty: the model's default" error={errorAt(f("max_tokens"))}>
          <Input
            id={id(f("max_tokens"))}
            type="number"
            inputMode="numeric"
            min={1}
            {...form.register(f("max_tokens"))}
            aria-invalid={Boolean(errorAt(f("max_tokens")))}
          />
        </Field>
      </div>
      <Field
        id={id(f("variables"))}
        label="Variables (optional)"
        hint={
          variableNames.length > 0 ? `A JSON object; this agent declares: ${variableNames.join(", ")}` : "A JSON object of variable values"
        }
        error={errorAt(f("variables"))}
      >
        <Textarea
          id={id(f("variables"))}
          rows={2}
          className="font-mono text-xs"
          {...form.register(f("variables"))}
          aria-invalid={Boolean(errorAt(f("variables")))}
        />
      </Field>
    </fieldset>
  );
}
