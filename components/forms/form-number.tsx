import type { FieldValues } from "react-hook-form";
import { FormInput } from "./form-input";

type FormInputProps<T extends FieldValues> = React.ComponentProps<typeof FormInput<T>>;

/**
 * A FormInput for a number: registered with `valueAsNumber` unless `rules` say otherwise (a
 * `setValueAs` for a field that may stay empty); min/max/step pass straight to the input.
 */
export function FormNumber<T extends FieldValues>({ rules = { valueAsNumber: true }, ...props }: Omit<FormInputProps<T>, "type">) {
  return <FormInput<T> type="number" rules={rules} {...props} />;
}
