import { get, type FieldValues, type FormState, type Path, type RegisterOptions, type UseFormRegister } from "react-hook-form";
import { InputField, type InputFieldProps } from "@/components/ui/field";

/** What a field needs of react-hook-form's `useForm()`: its registration and its errors. */
type FormLike<T extends FieldValues> = { register: UseFormRegister<T>; formState: FormState<T> };

/**
 * An InputField bound to one field of a react-hook-form form: registered under `name`, showing
 * that field's error, with `name` as its id unless `id` says otherwise. For flat forms whose
 * fields are plain inputs (sign-in, settings…); `rules` are react-hook-form's register options.
 */
export function FormInput<T extends FieldValues>({
  form,
  name,
  id = name,
  rules,
  ...props
}: Omit<InputFieldProps, "id" | "error" | "name" | "form"> & {
  form: FormLike<T>;
  name: Path<T>;
  id?: string;
  rules?: RegisterOptions<T, Path<T>>;
}) {
  const error = (get(form.formState.errors, name) as { message?: string } | undefined)?.message;
  return <InputField id={id} error={error} {...props} {...form.register(name, rules)} />;
}
