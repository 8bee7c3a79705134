"use client";
import { useFieldArray, useFormContext } from "react-hook-form";
import { InputField } from "@/components/ui/field";
import { FormTextarea } from "@/components/forms/form-input";
import { Button } from "@/components/ui/button";
import { FormSection } from "./case-form-basics";
import { JsonObjectField } from "./json-object-field";
import { errorAt } from "./form-errors";
import type { CaseFormValues } from "./form-values";
import type { AgentToolOption } from "@/lib/test-cases/dto";

function OutcomeRows() {
  const { control, register, formState } = useFormContext<CaseFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: "expected_outcomes" });
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-medium text-slate-800">Expected outcomes</h3>
      <p className="text-xs text-slate-500">
        Label → expected value; the judge interprets them semantically. Plain text is stored as text; JSON such as true, 3 or {'{"a": 1}'}{" "}
        is stored as that value (wrap text in quotes to keep e.g. &quot;true&quot; as text).
      </p>
      {fields.map((f, i) => {
        const labelError = errorAt(formState.errors, `expected_outcomes.${i}.label`);
        return (
          <fieldset key={f.id} className="grid gap-2 rounded-md border border-slate-200 p-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
            <legend className="px-1 text-xs font-medium text-slate-500">Outcome {i + 1}</legend>
            <InputField
              id={`expected_outcomes.${i}.label`}
              label="Label"
              error={labelError}
              placeholder="refund_issued"
              {...register(`expected_outcomes.${i}.label`)}
            />
            <InputField
              id={`expected_outcomes.${i}.value`}
              label="Expected value"
              placeholder="true"
              {...register(`expected_outcomes.${i}.value`)}
            />
            <Button variant="ghost" size="sm" className="sm:mt-6" onClick={() => remove(i)} aria-label={`Remove outcome ${i + 1}`}>
              Remove
            </Button>
          </fieldset>
        );
      })}
      <Button variant="secondary" size="sm" onClick={() => append({ label: "", value: "" })}>
        Add outcome
      </Button>
    </div>
  );
}

function ToolCallRows({ tools }: { tools: AgentToolOption[] }) {
  const { control, register, formState, watch } = useFormContext<CaseFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: "expected_tool_calls" });
  const values = watch("expected_tool_calls");
  const known = new Set(tools.map((t) => t.name));
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-medium text-slate-800">Expected tool calls</h3>
      <p className="text-xs text-slate-500">
        {tools.length > 0
          ? `The agent's tools: ${tools.map((t) => t.name).join(", ")}.`
          : "This suite's agent declares no tools; you can still type a tool name."}{" "}
        Leave the parameters empty to accept any.
      </p>
      <datalist id="agent-tools">
        {tools.map((t) => (
          <option key={t.name} value={t.name} label={t.description || undefined} />
        ))}
      </datalist>
      {fields.map((f, i) => {
        const toolError = errorAt(formState.errors, `expected_tool_calls.${i}.tool`);
        const typed = values?.[i]?.tool?.trim() ?? "";
        const unknownTool = tools.length > 0 && typed !== "" && !known.has(typed);
        return (
          <fieldset key={f.id} className="space-y-3 rounded-md border border-slate-200 p-3">
            <legend className="px-1 text-xs font-medium text-slate-500">Tool call {i + 1}</legend>
            <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start">
              <InputField
                id={`expected_tool_calls.${i}.tool`}
                label="Tool"
                required
                error={toolError}
                hint={unknownTool ? "Not one of the agent's tools" : undefined}
                list="agent-tools"
                autoComplete="off"
                {...register(`expected_tool_calls.${i}.tool`)}
              />
              <Button variant="ghost" size="sm" className="sm:mt-6" onClick={() => remove(i)} aria-label={`Remove tool call ${i + 1}`}>
                Remove
              </Button>
            </div>
            <JsonObjectField
              name={`expected_tool_calls.${i}.expected_params`}
              label="Expected parameters (JSON object)"
              hint="Compared as a subset of the actual arguments. Empty = any parameters."
              placeholder={'{"order_id": "A-1001"}'}
              rows={3}
            />
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" className="h-4 w-4 rounded border-slate-300" {...register(`expected_tool_calls.${i}.forbidden`)} />
              Must not be called
            </label>
          </fieldset>
        );
      })}
      <Button variant="secondary" size="sm" onClick={() => append({ tool: "", expected_params: "", forbidden: false })}>
        Add tool call
      </Button>
    </div>
  );
}

/** Per-test metric selection (the execution model): the suite's metrics (default) or only the ones named here. */
function EvaluationsField() {
  const { register, formState, watch } = useFormContext<CaseFormValues>();
  const custom = watch("evaluations_custom");
  const error = errorAt(formState.errors, "evaluations");
  return (
    <div className="space-y-2">
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" id="evaluations_custom" className="h-4 w-4" {...register("evaluations_custom")} />
        Choose the metrics for this case
      </label>
      {custom && (
        <InputField
          id="evaluations"
          label="Metrics for this case"
          hint="Names of the suite's metrics, comma-separated, e.g. relevance, groundedness. Only these are scored for this case; empty = no metric."
          error={error}
          placeholder="relevance, groundedness"
          {...register("evaluations")}
        />
      )}
    </div>
  );
}

export function ExpectationsSection({ tools }: { tools: AgentToolOption[] }) {
  const form = useFormContext<CaseFormValues>();
  return (
    <FormSection title="Expectations" description="What the judge checks at the end of the conversation.">
      <OutcomeRows />
      <ToolCallRows tools={tools} />
      <FormTextarea
        form={form}
        name="evaluation_criteria_override"
        label="Evaluation criteria override"
        hint="Replaces the default judge rubric for this case. Leave empty to use the default."
        rows={3}
      />
      <FormTextarea
        form={form}
        name="ground_truth"
        label="Ground truth"
        hint="The reference answer, for metrics that compare against it"
        rows={2}
      />
      <EvaluationsField />
    </FormSection>
  );
}
