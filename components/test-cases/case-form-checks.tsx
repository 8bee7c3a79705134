"use client";
import { useFieldArray, useFormContext } from "react-hook-form";
import { Field, InputField, Textarea, TextareaField } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { FormSection } from "./case-form-basics";
import { errorAt } from "./form-errors";
import { emptyCheck, type CaseFormValues, type CheckType } from "./form-values";

const CHECK_LABELS: Record<CheckType, string> = {
  contains_phrases: "Contains phrases",
  semantic_similarity: "Semantic similarity",
  llm_judge: "LLM judge",
};

function CheckFields({ index }: { index: number }) {
  const { register, formState, watch } = useFormContext<CaseFormValues>();
  const type = watch(`checks.${index}.type`);
  const p = `checks.${index}` as const;
  const err = (field: string) => errorAt(formState.errors, `${p}.${field}`);
  if (type === "contains_phrases") {
    return (
      <>
        <TextareaField
          id={`${p}.phrases`}
          label="Phrases (one per line)"
          required
          hint="The reply must contain every phrase"
          error={err("phrases")}
          rows={3}
          {...register(`${p}.phrases`)}
        />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" className="h-4 w-4 rounded border-slate-300" {...register(`${p}.case_sensitive`)} />
          Case sensitive
        </label>
      </>
    );
  }
  return (
    <>
      <TextareaField
        id={`${p}.expected_answer`}
        label="Expected answer"
        required
        error={err("expected_answer")}
        rows={3}
        {...register(`${p}.expected_answer`)}
      />
      {type === "semantic_similarity" ? (
        <InputField
          id={`${p}.threshold`}
          label="Threshold (0 to 1)"
          required
          hint="Minimum cosine similarity between the reply and the expected answer"
          error={err("threshold")}
          inputMode="decimal"
          className="max-w-40"
          {...register(`${p}.threshold`)}
        />
      ) : (
        <Field id={`${p}.criteria`} label="Criteria" hint="Optional: what the judge should look for" error={err("criteria")}>
          <Textarea id={`${p}.criteria`} rows={2} {...register(`${p}.criteria`)} />
        </Field>
      )}
    </>
  );
}

export function ChecksSection() {
  const { control, register, watch, formState } = useFormContext<CaseFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: "checks" });
  const checks = watch("checks");
  // With a simulated user the checks read the agent's last reply of the conversation.
  const description = watch("multi_turn") ? "Checks on the agent's final reply of the conversation." : "Checks on the agent's reply.";
  return (
    <FormSection title="Checks" description={description}>
      {fields.map((f, i) => (
        <fieldset key={f.id} className="space-y-3 rounded-md border border-slate-200 p-3">
          <legend className="px-1 text-xs font-medium text-slate-500">
            Check {i + 1} · {CHECK_LABELS[checks?.[i]?.type ?? f.type]}
          </legend>
          <CheckFields index={i} />
          <div className="flex justify-end">
            <Button variant="ghost" size="sm" onClick={() => remove(i)} aria-label={`Remove check ${i + 1}`}>
              Remove check
            </Button>
          </div>
        </fieldset>
      ))}
      {fields.length === 0 && (
        <p className="text-sm text-slate-500">No checks. Add one below, or rely on expected outcomes and tool calls.</p>
      )}
      <div className="flex flex-wrap gap-2">
        {(Object.keys(CHECK_LABELS) as CheckType[]).map((t) => (
          <Button key={t} variant="secondary" size="sm" onClick={() => append(emptyCheck(t))}>
            Add {CHECK_LABELS[t].toLowerCase()} check
          </Button>
        ))}
      </div>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium text-slate-700">Mode</legend>
        <div className="flex gap-4 text-sm text-slate-700">
          <label className="flex items-center gap-2">
            <input type="radio" value="all" {...register("mode")} /> All checks must pass
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" value="any" {...register("mode")} /> Any check may pass
          </label>
        </div>
        {formState.errors.mode?.message && (
          <p className="text-xs text-red-600" data-testid="error-mode">
            {formState.errors.mode.message}
          </p>
        )}
      </fieldset>
    </FormSection>
  );
}
