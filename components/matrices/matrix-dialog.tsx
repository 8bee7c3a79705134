"use client";
import { useId, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { createMatrixAction, matrixOptionsAction, type MatrixOptions } from "@/lib/matrices/actions";
import { countComparisonCasesAction } from "@/lib/comparisons/actions";
import { MAX_COMBINATIONS, MAX_MATRIX_REPETITIONS } from "@/lib/matrices/schemas";
import { DIFFICULTIES } from "@/lib/test-cases/schemas";
import type { IssueList } from "@/lib/errors";
import { Button } from "@/components/ui/button";
import { Field, FormError, Input, Select } from "@/components/ui/field";
import { axesOf, axisValues, choicesFor, combinationCount, type AxisState } from "./matrix-form-model";
import { matrixHref } from "./format";

/**
 * "Matrix": a dialog that defines the axes of a matrix run (a declared variable of the suite's
 * agent each, with the values to try: checkboxes for static values, booleans and model
 * configuration names, typed values otherwise), repetitions and case filters; it shows the
 * combination count and the estimated agent calls, then starts the matrix and opens its page.
 */
export function MatrixButton({ workspaceId, suiteId }: { workspaceId: string; suiteId: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [opened, setOpened] = useState(false);
  const uid = useId();
  const options = useQuery({
    queryKey: ["matrix-options", workspaceId, suiteId],
    queryFn: async () => {
      const result = await matrixOptionsAction(workspaceId, { suite_id: suiteId });
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
        Matrix
      </Button>
      <dialog
        ref={ref}
        aria-labelledby={`${uid}-title`}
        className="m-auto max-h-[92vh] w-full max-w-3xl overflow-y-auto rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <div className="p-5">
          <h2 id={`${uid}-title`} className="text-base font-semibold">
            New matrix run
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Runs the selected cases once per combination of variable values (at most {MAX_COMBINATIONS}) and compares them side by side.
          </p>
        </div>
        {options.isError ? (
          <div className="space-y-3 px-5 pb-5">
            <FormError message={`The matrix options could not be loaded: ${options.error.message}`} />
            <Button variant="secondary" onClick={close}>
              Close
            </Button>
          </div>
        ) : !options.data ? (
          <p className="px-5 pb-5 text-sm text-slate-600" aria-busy="true">
            Loading the agent&apos;s variables…
          </p>
        ) : (
          <MatrixForm workspaceId={workspaceId} suiteId={suiteId} options={options.data} onCancel={close} />
        )}
      </dialog>
    </>
  );
}

function MatrixForm({
  workspaceId,
  suiteId,
  options,
  onCancel,
}: {
  workspaceId: string;
  suiteId: string;
  options: MatrixOptions;
  onCancel: () => void;
}) {
  const router = useRouter();
  const uid = useId();
  const [name, setName] = useState("");
  const [axes, setAxes] = useState<AxisState[]>([{ key: 0, name: "", selected: [], text: "" }]);
  const [nextKey, setNextKey] = useState(1);
  const [repetitions, setRepetitions] = useState("1");
  const [tags, setTags] = useState<string[]>([]);
  const [tagMatch, setTagMatch] = useState<"any" | "all">("any");
  const [difficulty, setDifficulty] = useState("");
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [issues, setIssues] = useState<IssueList>([]);

  const count = useQuery({
    queryKey: ["matrix-case-count", workspaceId, suiteId, tags.join("\u0000"), tagMatch, difficulty],
    queryFn: async () => {
      const result = await countComparisonCasesAction(workspaceId, {
        suite_id: suiteId,
        tags,
        tag_match: tagMatch,
        difficulty: (difficulty || null) as (typeof DIFFICULTIES)[number] | null,
      });
      if (!result.ok) throw new Error(result.error);
      return result.data;
    },
    staleTime: 10_000,
  });

  if (options.variables.length === 0) {
    return (
      <div className="space-y-3 px-5 pb-5">
        <p className="text-sm text-slate-700">
          The suite&apos;s agent declares no variables. Add variables (for example AIConfiguration and Temperature) on the agent&apos;s form
          first.
        </p>
        <Button variant="secondary" onClick={onCancel}>
          Close
        </Button>
      </div>
    );
  }

  const definitions = new Map(options.variables.map((d) => [d.name, d]));
  const matrixAxes = axesOf(axes, options);
  const combinations = combinationCount(matrixAxes);
  const reps = Number(repetitions);
  const validReps = Number.isInteger(reps) && reps >= 1 && reps <= MAX_MATRIX_REPETITIONS;
  const cases = count.data;
  const calls = cases !== undefined && validReps ? combinations * cases * reps : null;
  const used = new Set(axes.map((a) => a.name).filter(Boolean));
  const tooMany = combinations > MAX_COMBINATIONS;
  const empty = Object.keys(matrixAxes).length === 0 || Object.values(matrixAxes).some((v) => v.length === 0);
  const issueAt = (path: string) => issues.filter((i) => i.path === path || i.path.startsWith(`${path}.`)).map((i) => i.message);

  const update = (key: number, patch: Partial<AxisState>) => setAxes((all) => all.map((a) => (a.key === key ? { ...a, ...patch } : a)));
  const toggle = (axis: AxisState, choiceKey: string) =>
    update(axis.key, {
      selected: axis.selected.includes(choiceKey) ? axis.selected.filter((k) => k !== choiceKey) : [...axis.selected, choiceKey],
    });

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setSubmitting(true);
    setFormError(null);
    setIssues([]);
    const result = await createMatrixAction(workspaceId, {
      suite_id: suiteId,
      input: {
        ...(name.trim() ? { name: name.trim() } : {}),
        variables: matrixAxes,
        repetitions: validReps ? reps : repetitions,
        tags,
        tag_match: tagMatch,
        difficulty: difficulty || null,
      },
    });
    if (!result.ok) {
      setSubmitting(false);
      setFormError(result.error);
      setIssues(result.issues);
      return;
    }
    router.push(matrixHref(workspaceId, result.data.id));
  };

  return (
    <form onSubmit={submit} className="space-y-5 px-5 pb-5" noValidate>
      <fieldset disabled={submitting} className="space-y-5">
        <Field id={`${uid}-name`} label="Name" hint="Optional; defaults to the variables' names">
          <Input id={`${uid}-name`} value={name} onChange={(e) => setName(e.target.value)} maxLength={255} />
        </Field>

        {axes.map((axis, i) => {
          const def = definitions.get(axis.name);
          const choices = choicesFor(def, options);
          const values = axisValues(axis, def, options);
          const suiteValue = def ? options.suite_values[def.name] : undefined;
          const errors = axis.name ? issueAt(`variables.${axis.name}`) : [];
          return (
            <fieldset key={axis.key} className="space-y-3 rounded-md border border-slate-200 p-4">
              <legend className="px-1 text-sm font-semibold text-slate-800">Axis {i + 1}</legend>
              <div className="flex flex-wrap items-end gap-3">
                <Field id={`${uid}-axis-${axis.key}`} label={`Variable ${i + 1}`} className="min-w-56 flex-1">
                  <Select
                    id={`${uid}-axis-${axis.key}`}
                    value={axis.name}
                    onChange={(e) => update(axis.key, { name: e.target.value, selected: [], text: "" })}
                  >
                    <option value="">Choose a variable</option>
                    {options.variables.map((d) => (
                      <option key={d.name} value={d.name} disabled={used.has(d.name) && d.name !== axis.name}>
                        {d.display_name} ({d.name})
                      </option>
                    ))}
                  </Select>
                </Field>
                {axes.length > 1 && (
                  <Button variant="secondary" size="sm" onClick={() => setAxes((all) => all.filter((a) => a.key !== axis.key))}>
                    Remove axis {i + 1}
                  </Button>
                )}
              </div>
              {def && (
                <>
                  {def.description && <p className="text-xs text-slate-500">{def.description}</p>}
                  {choices ? (
                    <div role="group" aria-label={`Values of ${def.name}`} className="flex flex-wrap gap-x-4 gap-y-2">
                      {choices.map((c) => (
                        <label key={c.key} className="flex items-center gap-2 text-sm text-slate-700">
                          <input type="checkbox" checked={axis.selected.includes(c.key)} onChange={() => toggle(axis, c.key)} />
                          {c.label}
                        </label>
                      ))}
                    </div>
                  ) : (
                    <Field
                      id={`${uid}-values-${axis.key}`}
                      label={`Values of ${def.name}`}
                      hint={`Comma-separated ${def.data_type} values, e.g. ${def.data_type === "number" ? "0, 0.7" : "a, b"}`}
                    >
                      <Input
                        id={`${uid}-values-${axis.key}`}
                        value={axis.text}
                        onChange={(e) => update(axis.key, { text: e.target.value })}
                        inputMode={def.data_type === "number" ? "decimal" : undefined}
                      />
                    </Field>
                  )}
                  <p className="text-xs text-slate-500">
                    {values.length} value{values.length === 1 ? "" : "s"}
                    {suiteValue !== undefined && ` · the suite's own value: ${String(suiteValue)}`}
                  </p>
                </>
              )}
              {errors.map((m) => (
                <p key={m} className="text-xs text-red-600">
                  {m}
                </p>
              ))}
            </fieldset>
          );
        })}
        {used.size < options.variables.length && (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => {
              setAxes((all) => [...all, { key: nextKey, name: "", selected: [], text: "" }]);
              setNextKey((k) => k + 1);
            }}
          >
            Add variable
          </Button>
        )}

        <fieldset className="space-y-3 rounded-md border border-slate-200 p-4">
          <legend className="px-1 text-sm font-semibold text-slate-800">Cases</legend>
          <div className="space-y-1">
            <p className="text-sm font-medium text-slate-700">Tags</p>
            {options.tags.length === 0 ? (
              <p className="text-xs text-slate-500">This suite&apos;s cases have no tags.</p>
            ) : (
              <div className="flex flex-wrap gap-x-4 gap-y-2">
                {options.tags.map((tag) => (
                  <label key={tag} className="flex items-center gap-2 text-sm text-slate-700">
                    <input
                      type="checkbox"
                      checked={tags.includes(tag)}
                      onChange={() => setTags((all) => (all.includes(tag) ? all.filter((t) => t !== tag) : [...all, tag]))}
                    />
                    {tag}
                  </label>
                ))}
              </div>
            )}
            {tags.length > 1 && (
              <Select
                aria-label="Tag match"
                value={tagMatch}
                onChange={(e) => setTagMatch(e.target.value as "any" | "all")}
                className="w-56"
              >
                <option value="any">Any of these tags</option>
                <option value="all">All of these tags</option>
              </Select>
            )}
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field id={`${uid}-difficulty`} label="Difficulty">
              <Select id={`${uid}-difficulty`} value={difficulty} onChange={(e) => setDifficulty(e.target.value)}>
                <option value="">Any difficulty</option>
                {DIFFICULTIES.map((d) => (
                  <option key={d} value={d}>
                    {d}
                  </option>
                ))}
              </Select>
            </Field>
            <Field
              id={`${uid}-repetitions`}
              label="Repetitions"
              hint={`Each case runs this many times per combination (1–${MAX_MATRIX_REPETITIONS})`}
              error={issueAt("repetitions")[0] ?? (validReps ? undefined : `Enter a whole number from 1 to ${MAX_MATRIX_REPETITIONS}`)}
            >
              <Input
                id={`${uid}-repetitions`}
                value={repetitions}
                onChange={(e) => setRepetitions(e.target.value)}
                inputMode="numeric"
                aria-invalid={!validReps}
              />
            </Field>
          </div>
        </fieldset>

        <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700" role="status" data-testid="matrix-estimate">
          <span className="font-semibold">{combinations}</span> combination{combinations === 1 ? "" : "s"}
          {cases !== undefined && (
            <>
              {" "}
              × {cases} case{cases === 1 ? "" : "s"}
              {validReps && reps > 1 && ` × ${reps} repetitions`} ≈ <span className="font-semibold">{calls}</span> agent calls (more for
              multi-turn cases)
            </>
          )}
        </p>
        {tooMany && (
          <p className="text-sm text-red-600">
            {combinations} combinations: a matrix has at most {MAX_COMBINATIONS}. Remove values or an axis.
          </p>
        )}
        <FormError
          message={
            formError &&
            [formError, ...issues.filter((i) => !i.path.startsWith("variables.") && i.path !== "repetitions").map((i) => i.message)].join(
              ": ",
            )
          }
        />
      </fieldset>
      <div className="flex gap-2">
        <Button type="submit" disabled={submitting || tooMany || empty || !validReps}>
          {submitting ? "Starting…" : `Start ${combinations} run${combinations === 1 ? "" : "s"}`}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
