import { roleLabels, type Role } from "@/lib/auth/roles";
import { Options, SelectField } from "@/components/ui/field";

type SelectProps = React.SelectHTMLAttributes<HTMLSelectElement> & { ref?: React.Ref<HTMLSelectElement> };

/**
 * A labelled member-role field offering `roles` (the invite form leaves out "owner" for admins,
 * API keys never offer it). Takes react-hook-form's `register(...)` props like a plain select.
 */
export function RoleSelect({
  id,
  roles,
  label = "Role",
  error,
  className,
  ...props
}: Omit<SelectProps, "id"> & { id: string; roles: readonly Role[]; label?: string; error?: string }) {
  return (
    <SelectField id={id} label={label} error={error} fieldClassName={className} {...props}>
      <Options values={roles} labels={roleLabels} />
    </SelectField>
  );
}
