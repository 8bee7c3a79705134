import { MAX_RUN_CONCURRENCY } from "@/lib/runs/schemas";
import { NumberField, type NumberFieldProps } from "@/components/ui/number-field";

/** How many cases (or comparison pairs) run at once: the same bounds for runs and comparisons. */
export function ConcurrencyField({
  unit,
  ...props
}: Omit<NumberFieldProps, "label" | "hint" | "min" | "max" | "inputMode"> & { unit: "Cases" | "Pairs" }) {
  return (
    <NumberField
      label="Concurrency"
      hint={`${unit} at once, 1–${MAX_RUN_CONCURRENCY}`}
      inputMode="numeric"
      min={1}
      max={MAX_RUN_CONCURRENCY}
      {...props}
    />
  );
}
