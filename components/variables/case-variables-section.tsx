"use client";
import { Controller, useFormContext, useWatch } from "react-hook-form";
import { Input } from "@/components/ui/field";
import type { VariableDefinition, VariableValue } from "@/lib/agents/schemas";
import { FormSection } from "@/components/test-cases/case-form-basics";
import { errorAt } from "@/components/test-cases/form-errors";
import type { CaseFormValues } from "@/components/test-cases/form-values";
import { VariableValueInput } from "./variable-value-input";
import type { CaseVariableRow } from "./case-variable-rows";

/**
 * The variables model test level in the case form: per variable of the suite's agent, whether this case
 * exposes it (an unexposed variable cannot be set by the suite or a run for this case), its own
 * default, a lock (the default always wins) and restricted values (a subset of the possible ones).
 */
export function CaseVariablesSection({ definitions }: { definitions: VariableDefinition[] }) {
  const { control } = useFormContext<CaseFormValues>();
  const rows = (useWatch({ control, name: "variables" }) ?? {}) as Record<string, CaseVariableRow>;
  const names = Object.keys(rows);
  return (
    <FormSection
      title="Variables"
      description="What this case does with the agent's variables. Untouched variables are exposed with the agent's default; suite and run values override a case's default unless it is locked."
    >
      {names.length === 0 ? (
        <p className="text-sm text-slate-500">The suite&apos;s agent declares no variables.</p>
      ) : (
        names.map((name) => <VariableRowFields key={name} name={name} def={definitions.find((d) => d.name === name)} row={rows[name]!} />)
      )}
    </FormSection>
  );
}

function VariableRowFields({ name, def, row }: { name: string; def: VariableDefinition | undefined; row: CaseVariableRow }) {
  const { control, register, formState, setValue } = useFormContext<CaseFormValues>();
  const base = `variables.${name}` as const;
  const err = (field: string) => errorAt(formState.errors, `${base}.${field}`);
  const legend = def ? `${def.display_name} (${name})` : name;

  if (!def) {
    return (
      <fieldset className="rounded-md border border-red-200 p-3" aria-label={`Variable ${name}`}>
        <legend className="px-1 font-mono text-sm">{name}</legend>
        <p className="text-sm text-red-700">{err("exposed") ?? "The agent no longer declares this variable."}</p>
        <button
          type="button"
          className="mt-1 text-xs text-red-700 hover:underline"
          onClick={() =>
            setValue(
              base,
              { ...row, exposed: true, default_value: null, locked: false, restricted: [], restricted_text: "" },
              { shouldDirty: true },
            )
          }
        >
          Remove this override
        </button>
      </fieldset>
    );
  }

  const allowed = row.is_static && row.restricted.length > 0 ? row.restricted : null;
  const restrictedError = err("restricted");
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-200 p-3" aria-label={`Variable ${name}`}>
      <legend className="px-1 text-sm font-medium text-slate-800">{legend}</legend>
      {def.description && <p className="text-xs text-slate-500">{def.description}</p>}
      <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
        <label className="inline-flex items-center gap-1.5">
          <input type="checkbox" id={`${base}.exposed`} {...register(`${base}.exposed`)} />
          Exposed
        </label>
        <label className="inline-flex items-center gap-1.5">
          <input type="checkbox" id={`${base}.locked`} disabled={!row.exposed} {...register(`${base}.locked`)} />
          Locked (suite and run values cannot change it)
        </label>
      </div>
      {err("exposed") && <p className="text-xs text-red-600">{err("exposed")}</p>}
      {err("locked") && (
        <p className="text-xs text-red-600" id={`${base}.locked-error`}>
          {err("locked")}
        </p>
      )}
      {row.exposed && (
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="space-y-1">
            <label htmlFor={`${base}.default_value`} className="block text-sm font-medium text-slate-700">
              Default for this case
            </label>
            <Controller
              control={control}
              name={`${base}.default_value`}
              render={({ field }) => (
                <VariableValueInput
                  id={`${base}.default_value`}
                  def={def}
                  value={(field.value as VariableValue | null) ?? undefined}
                  onChange={(v) => field.onChange(v ?? null)}
                  allowed={allowed}
                  invalid={Boolean(err("default_value"))}
                  label={`Default for this case: ${def.display_name}`}
                />
              )}
            />
            <p className="text-xs text-slate-500">
              {def.default_value !== null ? `Agent default: ${String(def.default_value)}` : "The agent has no default"}
            </p>
            {err("default_value") && <p className="text-xs text-red-600">{err("default_value")}</p>}
          </div>
          <div className="space-y-1">
            {row.is_static ? (
              <Controller
                control={control}
                name={`${base}.restricted`}
                render={({ field }) => {
                  const current = (field.value as VariableValue[]) ?? [];
                  return (
                    <fieldset aria-label={`Restricted values of ${name}`}>
                      <legend className="text-sm font-medium text-slate-700">Restricted values</legend>
                      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
                        {def.possible_values.map((pv, i) => (
                          <label key={i} className="inline-flex items-center gap-1.5 text-sm">
                            <input
                              type="checkbox"
                              checked={current.includes(pv.value)}
                              onChange={(e) =>
                                field.onChange(e.target.checked ? [...current, pv.value] : current.filter((v) => v !== pv.value))
                              }
                            />
                            {pv.label ?? String(pv.value)}
                          </label>
                        ))}
                      </div>
                      <p className="text-xs text-slate-500">None checked: every possible value.</p>
                    </fieldset>
                  );
                }}
              />
            ) : (
              <>
                <label htmlFor={`${base}.restricted_text`} className="block text-sm font-medium text-slate-700">
                  Restricted values
                </label>
                <Input
                  id={`${base}.restricted_text`}
                  placeholder="e.g. 0, 0.5"
                  aria-invalid={Boolean(restrictedError)}
                  {...register(`${base}.restricted_text`)}
                />
                <p className="text-xs text-slate-500">Comma-separated; empty: any value.</p>
              </>
            )}
            {restrictedError && <p className="text-xs text-red-600">{restrictedError}</p>}
          </div>
        </div>
      )}
    </fieldset>
  );
}
