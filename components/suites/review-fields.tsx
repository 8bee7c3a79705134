"use client";
import type { UseFormReturn } from "react-hook-form";
import { NumberField } from "@/components/ui/number-field";
import { FormCheckbox } from "@/components/forms/form-checkbox";
import { FormNumber } from "@/components/forms/form-number";
import type { SuiteData, SuiteInput } from "@/lib/suites/schemas";

type Form = UseFormReturn<SuiteInput, unknown, SuiteData>;

/**
 * The suite form's "Human review" section: which results of a finished run go to review (the
 * review rules), how many labels an item needs, and when the judge counts as calibrated and
 * trusted. Errors show at the field their path names (`review_rules.passed_sample_percent`).
 */
export function ReviewFields({ form }: { form: Form }) {
  const errors = form.formState.errors;
  const rules = errors.review_rules;
  return (
    <section className="space-y-3 border-t border-slate-200 pt-5" aria-labelledby="suite-review-heading">
      <div>
        <h2 id="suite-review-heading" className="text-sm font-semibold text-slate-900">
          Human review
        </h2>
        <p className="text-xs text-slate-500">
          When a run finishes, these rules send its results to the Review queue; people&apos;s labels calibrate the judge.
        </p>
      </div>
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-800">Review rules</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormCheckbox form={form} name="review_rules.failed" id="review_rules_failed" label="Queue failed results" />
          <FormCheckbox form={form} name="review_rules.flaky" id="review_rules_flaky" label="Queue flaky cases" />
          <NumberField
            id="review_rules_passed_sample_percent"
            label="Sample of passed results (%)"
            hint="0–100: this share of the passed results, picked at random, goes to review (0: none)"
            error={rules?.passed_sample_percent?.message ?? rules?.message}
            min={0}
            max={100}
            step={1}
            {...form.register("review_rules.passed_sample_percent", { valueAsNumber: true })}
          />
        </div>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-3">
        <FormNumber
          form={form}
          name="required_reviews"
          label="Required reviews"
          hint="1–5 labels per item; with more than one, differing verdicts make a conflict an admin resolves"
          min={1}
          max={5}
          step={1}
        />
        <FormNumber
          form={form}
          name="calibration_min_labels"
          label="Labels before calibration"
          hint="Reviewed results needed before the judge can be trusted or doubted"
          min={1}
          step={1}
        />
        <FormNumber
          form={form}
          name="calibration_trusted_kappa"
          label="Trusted when κ lower bound ≥"
          hint="−1 to 1: the judge is trusted when the lower end of kappa's 95% interval reaches this (0.6: substantial agreement)"
          min={-1}
          max={1}
          step={0.05}
        />
      </div>
    </section>
  );
}
