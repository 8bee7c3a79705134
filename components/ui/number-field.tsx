import { Field, Input } from "./field";

export type NumberFieldProps = Omit<React.ComponentProps<"input">, "id" | "type"> & {
  id: string;
  label: React.ReactNode;
  hint?: React.ReactNode;
  /** The field's message (react-hook-form's `errors.x?.message` or a server issue); marks the input invalid. */
  error?: string;
  required?: boolean;
  /** Classes of the field wrapper; `className` goes to the input. */
  fieldClassName?: string;
};

/**
 * A labelled number input with its hint and inline error: min/max/step and the value binding
 * (`{...form.register(...)}` or `value`/`onChange`) pass straight to the input, so the form
 * library keeps the parsing and the message.
 */
export function NumberField({ id, label, hint, error, required, fieldClassName, ...inputProps }: NumberFieldProps) {
  return (
    <Field id={id} label={label} hint={hint} error={error} required={required} className={fieldClassName}>
      <Input id={id} type="number" aria-invalid={Boolean(error)} {...inputProps} />
    </Field>
  );
}
