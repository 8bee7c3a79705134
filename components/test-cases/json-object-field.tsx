"use client";
import { useFormContext, type Path } from "react-hook-form";
import { Field, Textarea } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { parseJsonObject, type CaseFormValues } from "./form-values";
import { errorAt } from "./form-errors";

type JsonPath = Extract<Path<CaseFormValues>, "user_context" | `expected_tool_calls.${number}.expected_params`>;

/**
 * A JSON object editor: a monospace textarea holding the text as typed. Bad JSON is reported at
 * the field (on submit and then as you type) and the text is kept; "Format" pretty-prints it.
 */
export function JsonObjectField({
  name,
  label,
  hint,
  placeholder,
  rows = 4,
}: {
  name: JsonPath;
  label: string;
  hint?: string;
  placeholder?: string;
  rows?: number;
}) {
  const { register, getValues, setValue, formState } = useFormContext<CaseFormValues>();
  const error = errorAt(formState.errors, name);
  const format = () => {
    const text = getValues(name);
    const parsed = parseJsonObject(text);
    if (!parsed.error)
      setValue(name, parsed.value ? JSON.stringify(parsed.value, null, 2) : "", {
        shouldDirty: true,
        shouldValidate: formState.isSubmitted,
      });
  };
  return (
    <Field id={name} label={label} hint={hint} error={error}>
      <Textarea
        id={name}
        rows={rows}
        spellCheck={false}
        placeholder={placeholder}
        className="font-mono text-xs"
        aria-invalid={!!error}
        aria-describedby={error ? `${name}-error` : hint ? `${name}-hint` : undefined}
        {...register(name)}
      />
      <div className="flex justify-end">
        <Button size="sm" variant="ghost" onClick={format} aria-label={`Format ${label}`}>
          Format JSON
        </Button>
      </div>
    </Field>
  );
}
