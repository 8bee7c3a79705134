"use client";
import { Controller, useFormContext } from "react-hook-form";
import { Field, InputField, Select, Textarea } from "@/components/ui/field";
import { RUNNABLE_MESSAGE, type TestCaseStatus } from "@/lib/test-cases/schemas";
import { TagInput } from "./tag-input";
import { errorAt } from "./form-errors";
import { StatusBadge } from "./status-badge";
import type { CaseFormValues } from "./form-values";

export function FormSection({ title, description, children }: { title: string; description?: string; children: React.ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby={`section-${title}`}>
      <h2 id={`section-${title}`} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      {description && <p className="mt-0.5 text-sm text-slate-500">{description}</p>}
      <div className="mt-4 space-y-4">{children}</div>
    </section>
  );
}

export function BasicsSection({ mode, status, suiteTags }: { mode: "create" | "edit"; status?: TestCaseStatus; suiteTags: string[] }) {
  const { register, control, formState } = useFormContext<CaseFormValues>();
  const { errors } = formState;
  return (
    <FormSection title="Basics">
      <InputField
        id="name"
        label="Name"
        required
        error={errors.name?.message}
        maxLength={255}
        aria-describedby={errors.name ? "name-error" : undefined}
        {...register("name")}
      />
      <Field id="description" label="Description" hint="What this test case exercises (for humans)" error={errors.description?.message}>
        <Textarea id="description" rows={2} {...register("description")} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="difficulty" label="Difficulty" error={errors.difficulty?.message}>
          <Select id="difficulty" {...register("difficulty")}>
            <option value="normal">Normal</option>
            <option value="hard">Hard</option>
          </Select>
        </Field>
        {mode === "create" ? (
          <Field id="status" label="Status" hint="Only active cases run by default" error={errorAt(errors, "status")}>
            <Select
              id="status"
              aria-invalid={!!errors.status}
              aria-describedby={errors.status ? "status-error" : "status-hint"}
              {...register("status")}
            >
              <option value="active">Active</option>
              <option value="draft">Draft</option>
              <option value="archived">Archived</option>
            </Select>
          </Field>
        ) : (
          <div className="space-y-1">
            <p className="block text-sm font-medium text-slate-700">Status</p>
            <p className="flex items-center gap-2 py-2 text-sm text-slate-600">
              {status && <StatusBadge status={status} />}
              <span>Change it with the buttons at the top.</span>
            </p>
            {errors.status?.message && (
              <p id="status-error" className="text-xs text-red-600" data-testid="error-status">
                {errors.status.message === RUNNABLE_MESSAGE
                  ? "An active case needs an initial message or a simulated user to run. Add one, or move the case back to Draft first."
                  : errorAt(errors, "status")}
              </p>
            )}
          </div>
        )}
      </div>
      <Field id="tags" label="Tags" hint="Enter or comma adds a tag; the suite's tags are suggested" error={errorAt(errors, "tags")}>
        <Controller
          control={control}
          name="tags"
          render={({ field }) => (
            <TagInput id="tags" value={field.value} onChange={field.onChange} suggestions={suiteTags} invalid={!!errorAt(errors, "tags")} />
          )}
        />
      </Field>
    </FormSection>
  );
}
