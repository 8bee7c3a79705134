import { Button, type ButtonProps } from "./button";

/**
 * A form's submit button: disabled while the form is being submitted, and saying so with
 * `pendingLabel` ("Saving…") when given. The label otherwise stays the children, which tests
 * and screen readers find the button by.
 */
export function SubmitButton({
  pending,
  pendingLabel,
  disabled,
  children,
  ...props
}: Omit<ButtonProps, "type"> & { pending: boolean; pendingLabel?: React.ReactNode }) {
  return (
    <Button type="submit" disabled={pending || disabled} {...props}>
      {pending && pendingLabel !== undefined ? pendingLabel : children}
    </Button>
  );
}
