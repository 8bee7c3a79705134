"use client";
import { MAX_TRIALS } from "@/lib/runs/schemas";
import { NumberField } from "@/components/ui/number-field";
import { useCaseCount, type CaseFilter } from "./case-filter-fields";

/**
 * How many times each case of a run executes (its trials), with what that costs: "3 trials × 40
 * cases = 120 agent executions" when the dialog knows how many cases the selection takes, "each
 * case runs 3 times" while it does not. Out-of-range values are named at the field before the
 * server sees them.
 */

/** The field's message for a typed value, or undefined when it is a whole number from 1 to MAX_TRIALS. */
export function trialsError(value: string): string | undefined {
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < 1 || n > MAX_TRIALS) return `Use a whole number from 1 to ${MAX_TRIALS}`;
  return undefined;
}

/** "3 trials × 40 cases = 120 agent executions" (or "each case runs 3 times" without a case count). */
export function trialsEstimate(trials: number, cases: number | undefined): string {
  const times = `${trials} trial${trials === 1 ? "" : "s"}`;
  if (cases === undefined) return trials === 1 ? "Each case runs once" : `Each case runs ${trials} times`;
  const executions = trials * cases;
  return `${times} × ${cases} case${cases === 1 ? "" : "s"} = ${executions} agent execution${executions === 1 ? "" : "s"}`;
}

/** The trials field of a run over the suite's active cases narrowed by `filter`: it counts them for the estimate. */
export function FilteredTrialsField({
  workspaceId,
  suiteId,
  filter,
  ...props
}: Omit<TrialsFieldProps, "cases"> & { workspaceId: string; suiteId: string; filter: CaseFilter }) {
  const count = useCaseCount(workspaceId, suiteId, filter);
  return <TrialsField {...props} cases={count.data} />;
}

type TrialsFieldProps = {
  id: string;
  value: string;
  onChange: (value: string) => void;
  /** The number of cases the selection runs (undefined while counting or unknown). */
  cases: number | undefined;
  /** A message from the server at `trials`. */
  serverError?: string;
};

export function TrialsField({ id, value, onChange, cases, serverError }: TrialsFieldProps) {
  const error = trialsError(value) ?? serverError;
  return (
    <NumberField
      id={id}
      label="Trials"
      hint={
        <>
          <span data-testid="trials-estimate">{trialsEstimate(Number(value), cases)}</span>. Each trial is its own case result (1–
          {MAX_TRIALS}).
        </>
      }
      error={error}
      aria-describedby={error ? `${id}-error` : `${id}-hint`}
      inputMode="numeric"
      min={1}
      max={MAX_TRIALS}
      step={1}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
