import type { FieldValues, Path, UseFormRegister } from "react-hook-form";

/**
 * A checkbox bound to one boolean field of a react-hook-form form, its label beside it; `name` is
 * its id unless `id` says otherwise (ids with dots are awkward in CSS selectors).
 */
export function FormCheckbox<T extends FieldValues>({
  form,
  name,
  id = name,
  label,
}: {
  form: { register: UseFormRegister<T> };
  name: Path<T>;
  id?: string;
  label: React.ReactNode;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      <input type="checkbox" id={id} className="h-4 w-4" {...form.register(name)} />
      {label}
    </label>
  );
}
