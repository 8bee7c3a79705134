"use client";
import { useRef, useState } from "react";
import { Button, type ButtonProps } from "./button";

/** A button that asks for confirmation in a modal dialog before running a destructive action. */
export function ConfirmButton({
  title,
  description,
  confirmLabel = "Confirm",
  onConfirm,
  children,
  ...buttonProps
}: Omit<ButtonProps, "onClick"> & {
  title: string;
  description?: string;
  confirmLabel?: string;
  onConfirm: () => Promise<void> | void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button {...buttonProps} onClick={() => ref.current?.showModal()}>
        {children}
      </Button>
      <dialog
        ref={ref}
        className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md overflow-y-auto rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
        aria-label={title}
      >
        <div className="space-y-3 p-5">
          <h2 className="text-base font-semibold">{title}</h2>
          {description && <p className="text-sm text-slate-600">{description}</p>}
          <div className="flex justify-end gap-2 pt-2">
            <Button variant="secondary" onClick={() => ref.current?.close()} disabled={busy}>
              Cancel
            </Button>
            <Button
              variant={buttonProps.variant === "danger" ? "danger" : "primary"}
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                try {
                  await onConfirm();
                  ref.current?.close();
                } finally {
                  setBusy(false);
                }
              }}
            >
              {confirmLabel}
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}
