"use client";
import { useId, useState } from "react";
import { useRouter } from "next/navigation";
import { createMatrixAction, matrixOptionsAction, type MatrixOptions } from "@/lib/matrices/actions";
import { MAX_COMBINATIONS, MAX_MATRIX_REPETITIONS } from "@/lib/matrices/schemas";
import type { IssueList } from "@/lib/errors";
import { Button } from "@/components/ui/button";
import { Field, InputField, Select } from "@/components/ui/field";
import { LaunchForm, LaunchNotice } from "@/components/ui/launch-dialog";
import { suiteLaunchButton, type SuiteTarget } from "@/components/suites/suite-launch-dialog";
import { CaseFilterFields, difficultyOf, useCaseCount, type CaseFilter } from "@/components/runs/case-filter-fields";
import { axesOf, axisValues, choicesFor, combinationCount, type AxisState } from "./matrix-form-model";
import { matrixHref } from "./format";

/**
 * "Matrix": a dialog that defines the axes of a matrix run (a declared variable of the suite's
 * agent each, with the values to try: checkboxes for static values, booleans and model
 * configuration names, typed values otherwise), trials per combination and case filters; it shows the
 * combination count and the estimated agent calls, then starts the matrix and opens its page.
 */
export const MatrixButton = suiteLaunchButton({
  label: "Matrix",
  title: "New matrix run",
  description: `Runs the selected cases once per combination of variable values (at most ${MAX_COMBINATIONS}) and compares them side by side.`,
  width: "lg",
  options: { load: matrixOptionsAction, what: "The matrix options", loading: "Loading the agent's variables…" },
  form: MatrixForm,
});

function MatrixForm({ workspaceId, suiteId, options }: SuiteTarget & { options: MatrixOptions }) {
  const router = useRouter();
  const uid = useId();
  const [name, setName] = useState("");
  const [axes, setAxes] = useState<AxisState[]>([{ key: 0, name: "", selected: [], text: "" }]);
  const [nextKey, setNextKey] = useState(1);
  const [trials, setTrials] = useState(String(options.default_trials));
  const [filter, setFilter] = useState<CaseFilter>({ tags: [], tag_match: "any", difficulty: "" });
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [issues, setIssues] = useState<IssueList>([]);

  const count = useCaseCount(workspaceId, suiteId, filter);

  if (options.variables.length === 0) {
    return (
      <LaunchNotice>
        <p className="text-sm text-slate-700">
          The suite&apos;s agent declares no variables. Add variables (for example AIConfiguration and Temperature) on the agent&apos;s form
          first.
        </p>
      </LaunchNotice>
    );
  }

  const definitions = new Map(options.variables.map((d) => [d.name, d]));
  const matrixAxes = axesOf(axes, options);
  const combinations = combinationCount(matrixAxes);
  const reps = Number(trials);
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
        trials: validReps ? reps : trials,
        tags: filter.tags,
        tag_match: filter.tag_match,
        difficulty: difficultyOf(filter),
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
    <LaunchForm
      onSubmit={submit}
      pending={submitting}
      error={
        formError &&
        [
          formError,
          ...issues
            .filter((i) => !i.path.startsWith("variables.") && i.path !== "trials" && i.path !== "repetitions")
            .map((i) => i.message),
        ].join(": ")
      }
      submitLabel={`Start ${combinations} run${combinations === 1 ? "" : "s"}`}
      submitDisabled={tooMany || empty || !validReps}
    >
      <InputField
        id={`${uid}-name`}
        label="Name"
        hint="Optional; defaults to the variables' names"
        value={name}
        onChange={(e) => setName(e.target.value)}
        maxLength={255}
      />

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
                  <InputField
                    id={`${uid}-values-${axis.key}`}
                    label={`Values of ${def.name}`}
                    hint={`Comma-separated ${def.data_type} values, e.g. ${def.data_type === "number" ? "0, 0.7" : "a, b"}`}
                    value={axis.text}
                    onChange={(e) => update(axis.key, { text: e.target.value })}
                    inputMode={def.data_type === "number" ? "decimal" : undefined}
                  />
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
        <CaseFilterFields id={uid} tags={options.tags} value={filter} onChange={setFilter}>
          <InputField
            id={`${uid}-trials`}
            label="Trials per combination"
            hint={`Each case runs this many times per combination (1–${MAX_MATRIX_REPETITIONS})`}
            error={
              issueAt("trials")[0] ??
              issueAt("repetitions")[0] ??
              (validReps ? undefined : `Enter a whole number from 1 to ${MAX_MATRIX_REPETITIONS}`)
            }
            value={trials}
            onChange={(e) => setTrials(e.target.value)}
            inputMode="numeric"
          />
        </CaseFilterFields>
      </fieldset>

      <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700" role="status" data-testid="matrix-estimate">
        <span className="font-semibold">{combinations}</span> combination{combinations === 1 ? "" : "s"}
        {cases !== undefined && (
          <>
            {" "}
            × {cases} case{cases === 1 ? "" : "s"}
            {validReps && reps > 1 && ` × ${reps} trials`} ≈ <span className="font-semibold">{calls}</span> agent calls (more for multi-turn
            cases)
          </>
        )}
      </p>
      {tooMany && (
        <p className="text-sm text-red-600">
          {combinations} combinations: a matrix has at most {MAX_COMBINATIONS}. Remove values or an axis.
        </p>
      )}
    </LaunchForm>
  );
}
