import { InputField, type InputFieldProps } from "./field";

export type NumberFieldProps = Omit<InputFieldProps, "type">;

/**
 * A labelled number input with its hint and inline error: min/max/step and the value binding
 * (`{...form.register(...)}` or `value`/`onChange`) pass straight to the input, so the form
 * library keeps the parsing and the message.
 */
export function NumberField(props: NumberFieldProps) {
  return <InputField type="number" {...props} />;
}
