"use client";
import { ActionButton, type ActionButtonProps } from "./action-button";

/**
 * "Delete" (or "Delete <noun>") behind a confirmation dialog titled `Delete <noun> "<name>"?`;
 * the server action's refusal (still in use…) shows under the button.
 */
export function DeleteButton<T>({
  name,
  noun,
  description,
  confirmLabel = "Delete",
  ...props
}: Omit<ActionButtonProps<T>, "confirm" | "children" | "variant"> & {
  name: string;
  noun?: string;
  description: string;
  confirmLabel?: string;
}) {
  const what = noun ? `${noun} ` : "";
  return (
    <ActionButton variant="danger" confirm={{ title: `Delete ${what}"${name}"?`, description, confirmLabel }} {...props}>
      {noun ? `Delete ${noun}` : "Delete"}
    </ActionButton>
  );
}
