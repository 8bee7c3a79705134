"use client";
import { createContext, useContext, useEffect, useId, useRef, useState } from "react";
import { useQuery, type QueryKey } from "@tanstack/react-query";
import type { ActionOutcome } from "./action-button";
import { Button } from "./button";
import { FormError } from "./field";
import { cn } from "./cn";

/**
 * The frame every "start something" dialog shares (run suite, A/B comparison, matrix, compare
 * two runs): the trigger button, the modal with its title and description, the options it loads
 * on first open (with their loading and failure states), and `LaunchForm` for the form's errors
 * and its Cancel / submit footer with the pending state. Each dialog supplies only its fields.
 */

type LaunchContext = { close: () => void };
const LaunchDialogContext = createContext<LaunchContext>({ close: () => {} });

/** Closes the surrounding launch dialog (e.g. before navigating to what it started). */
export const useLaunchDialog = () => useContext(LaunchDialogContext);

/** Options the dialog needs from the server, fetched when it is first opened. */
export type LaunchOptions<T> = {
  queryKey: QueryKey;
  /** The server action that returns them; its error is shown in the dialog. */
  action: () => Promise<ActionOutcome<T>>;
  /** Names them in the failure message: "<what> could not be loaded: …". */
  what: string;
  /** Shown while they load. */
  loading: React.ReactNode;
  /** How long a loaded copy serves a reopened dialog. */
  staleTime?: number;
};

/**
 * Opens the dialog from elsewhere (a menu item) instead of its own trigger button: it shows while
 * `open` is true, and `onClose` runs when it closes (Cancel, Escape or after launching).
 */
export type DialogOpener = { open: boolean; onClose: () => void };

/** Shows a native dialog while `opener.open`; the opener's onClose follows the dialog's own closing. */
export function useOpenedDialog(ref: React.RefObject<HTMLDialogElement | null>, opener: DialogOpener | undefined, onShow?: () => void) {
  const open = opener?.open ?? false;
  useEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog || dialog.open) return;
    onShow?.();
    dialog.showModal();
    // onShow is the caller's reset for a fresh open; re-running it on its identity change would undo user input.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, ref]);
}

const WIDTHS = { md: "max-w-lg", lg: "max-w-3xl", xl: "max-w-5xl" } as const;

export function LaunchDialog<T = undefined>({
  label,
  variant = "primary",
  size,
  disabled,
  title = label,
  description,
  width = "md",
  onOpen,
  options,
  opener,
  children,
}: {
  /** The trigger button's text (and the dialog's title unless `title` is given). */
  label: string;
  variant?: "primary" | "secondary";
  size?: "sm" | "md";
  disabled?: boolean;
  title?: string;
  description: React.ReactNode;
  width?: keyof typeof WIDTHS;
  /** Runs on every open, before the dialog shows (e.g. clear the last attempt's errors). */
  onOpen?: () => void;
  options?: LaunchOptions<T>;
  /** Opened from elsewhere: no trigger button of its own. */
  opener?: DialogOpener;
  /** The dialog's body, given the loaded options (`undefined` without `options`). */
  children: (options: T) => React.ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const uid = useId();
  const [opened, setOpened] = useState(false);
  const loaded = useQuery({
    queryKey: options?.queryKey ?? ["launch-dialog-without-options"],
    queryFn: async () => {
      const result = await options!.action();
      if (!result.ok) throw new Error(result.error);
      return result.data;
    },
    enabled: (opened || !!opener?.open) && !!options,
    staleTime: options?.staleTime ?? 30_000,
  });
  const close = () => ref.current?.close();
  useOpenedDialog(ref, opener, onOpen);

  const body = !options ? (
    children(undefined as T)
  ) : loaded.isError ? (
    <LaunchNotice>
      <FormError message={`${options.what} could not be loaded: ${loaded.error.message}`} />
    </LaunchNotice>
  ) : loaded.data === undefined ? (
    <p className="px-5 pb-5 text-sm text-slate-600" aria-busy="true">
      {options.loading}
    </p>
  ) : (
    children(loaded.data)
  );

  return (
    <>
      {!opener && (
        <Button
          variant={variant}
          size={size}
          disabled={disabled}
          onClick={() => {
            setOpened(true);
            onOpen?.();
            ref.current?.showModal();
          }}
        >
          {label}
        </Button>
      )}
      <dialog
        ref={ref}
        onClose={opener?.onClose}
        aria-labelledby={`${uid}-title`}
        className={cn(
          "m-auto max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] overflow-y-auto rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40",
          WIDTHS[width],
        )}
      >
        <div className="p-5">
          <h2 id={`${uid}-title`} className="text-base font-semibold">
            {title}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{description}</p>
        </div>
        <LaunchDialogContext.Provider value={{ close }}>{body}</LaunchDialogContext.Provider>
      </dialog>
    </>
  );
}

/**
 * The dialog's form: its fields, then the error of the last attempt and the issues no field
 * shows, then Cancel and the submit button. While `pending` every control is disabled and the
 * submit button says what is happening.
 */
export function LaunchForm({
  onSubmit,
  pending,
  error,
  issues = [],
  submitLabel,
  pendingLabel = "Starting…",
  submitDisabled = false,
  children,
}: {
  /** Gets the dialog too, to close it before navigating to what was started. */
  onSubmit: (e: React.FormEvent<HTMLFormElement>, dialog: LaunchContext) => void | Promise<void>;
  pending: boolean;
  error?: string | null;
  /** Messages for issues that belong to no field. */
  issues?: string[];
  submitLabel: React.ReactNode;
  pendingLabel?: React.ReactNode;
  submitDisabled?: boolean;
  children: React.ReactNode;
}) {
  const dialog = useLaunchDialog();
  return (
    <form onSubmit={(e) => onSubmit(e, dialog)} noValidate className="space-y-5 px-5 pb-5">
      <fieldset disabled={pending} className="space-y-5">
        {children}
        <FormError message={error} />
        {issues.length > 0 && (
          <ul className="list-disc pl-5 text-xs text-red-600">
            {issues.map((message, i) => (
              <li key={`${i}-${message}`}>{message}</li>
            ))}
          </ul>
        )}
      </fieldset>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={dialog.close} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending || submitDisabled}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** A message in place of the form (nothing to launch yet), with a way out. */
export function LaunchNotice({ children }: { children: React.ReactNode }) {
  const { close } = useLaunchDialog();
  return (
    <div className="space-y-3 px-5 pb-5">
      {children}
      <Button variant="secondary" onClick={close}>
        Close
      </Button>
    </div>
  );
}
