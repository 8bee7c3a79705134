import { get, type FieldValues, type FormState, type Path, type RegisterOptions, type UseFormRegister } from "react-hook-form";
import { InputField, SelectField, TextareaField, type InputFieldProps } from "@/components/ui/field";

/** What a field needs of react-hook-form's `useForm()`: its registration and its errors. */
type FormLike<T extends FieldValues> = { register: UseFormRegister<T>; formState: FormState<T> };

type BoundProps<T extends FieldValues, P> = Omit<P, "id" | "error" | "name" | "form"> & {
  form: FormLike<T>;
  name: Path<T>;
  id?: string;
  rules?: RegisterOptions<T, Path<T>>;
};

/**
 * A labelled control bound to one field of a react-hook-form form: registered under `name`,
 * showing that field's error (nested paths such as `tools.0.name` included), with `name` as its
 * id unless `id` says otherwise; `rules` are react-hook-form's register options.
 */
function bound<P extends { id: string; error?: string }>(Control: (props: P) => React.ReactNode) {
  return function BoundControl<T extends FieldValues>({ form, name, id = name, rules, ...props }: BoundProps<T, P>) {
    const error = (get(form.formState.errors, name) as { message?: string } | undefined)?.message;
    // The rest is P without its id and error, which TypeScript cannot see through the generic Omit.
    const control = { id, error, ...props, ...form.register(name, rules) } as unknown as P;
    return <Control {...control} />;
  };
}

/** An InputField bound to a form field. For flat forms whose fields are plain inputs (sign-in, settings…). */
export const FormInput = bound<InputFieldProps>(InputField);

/** FormInput's twin for a multi-line value. */
export const FormTextarea = bound<React.ComponentProps<typeof TextareaField>>(TextareaField);

/** FormInput's twin for a choice: the `<option>`s are its children. */
export const FormSelect = bound<React.ComponentProps<typeof SelectField>>(SelectField);
