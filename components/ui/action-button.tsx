"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Button, type ButtonProps } from "./button";
import { ConfirmButton } from "./confirm-button";
import { cn } from "./cn";

/** What a server action returns (see `ActionResult` in lib/actions/safe-action.ts); `void` when it redirected. */
export type ActionOutcome<T> = { ok: true; data: T } | { ok: false; error: string };

export type ActionButtonProps<T> = Omit<ButtonProps, "onClick" | "children"> & {
  children: React.ReactNode;
  /** Calls the server action. */
  action: () => Promise<ActionOutcome<T> | void>;
  /** Ask first in a dialog; without it the action runs on click. */
  confirm?: { title: string; description?: string; confirmLabel?: string };
  /** Button text while the action runs (without `confirm`). */
  pendingLabel?: React.ReactNode;
  /** Where to go after success (then the router refreshes). */
  redirectTo?: string;
  /** Refresh the server-rendered page after the action: on success (default), always, or never. */
  refresh?: "success" | "always" | "never";
  onSuccess?: (data: T) => void | Promise<void>;
  /** Runs after the action whatever its outcome (e.g. invalidate queries). */
  onSettled?: () => void | Promise<void>;
  /** Which side the button and its error message line up on. */
  align?: "start" | "center" | "end" | "stretch";
  wrapperClassName?: string;
};

const ALIGN = {
  start: { wrapper: "items-start", error: "max-w-72" },
  center: { wrapper: "items-center", error: "max-w-72 text-center" },
  end: { wrapper: "items-end", error: "max-w-72 text-right" },
  stretch: { wrapper: "items-stretch", error: "" },
} as const;

/**
 * A button for one server action: optional confirmation dialog, pending state, and the
 * action's error shown right below the button; then redirect and/or refresh.
 */
export function ActionButton<T>({
  action,
  confirm,
  pendingLabel,
  redirectTo,
  refresh = "success",
  onSuccess,
  onSettled,
  align = "start",
  wrapperClassName,
  disabled,
  children,
  ...buttonProps
}: ActionButtonProps<T>) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  const run = async () => {
    setError(null);
    const result = await action();
    const failed = result !== undefined && !result.ok;
    if (result && !result.ok) setError(result.error);
    if (result?.ok) await onSuccess?.(result.data);
    await onSettled?.();
    if (!failed && redirectTo) router.push(redirectTo);
    if (refresh === "always" || (refresh === "success" && !failed)) router.refresh();
  };

  return (
    <div className={cn("flex flex-col gap-1", ALIGN[align].wrapper, wrapperClassName)}>
      {confirm ? (
        <ConfirmButton {...buttonProps} {...confirm} disabled={disabled} onConfirm={run}>
          {children}
        </ConfirmButton>
      ) : (
        <Button {...buttonProps} disabled={disabled || pending} onClick={() => startTransition(run)}>
          {pending && pendingLabel ? pendingLabel : children}
        </Button>
      )}
      {error && (
        <p role="status" className={cn("text-xs text-red-700", ALIGN[align].error)}>
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * A small ghost button in a table row or list item (Remove, Revoke…) that confirms first and
 * refreshes the list afterwards, whatever the outcome (a refusal often means the row changed).
 */
export function RowActionButton<T>(props: Omit<ActionButtonProps<T>, "variant" | "size" | "align" | "refresh">) {
  return <ActionButton variant="ghost" size="sm" align="end" refresh="always" {...props} />;
}
