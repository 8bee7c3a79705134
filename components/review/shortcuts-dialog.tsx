"use client";
import { forwardRef } from "react";
import { Button } from "@/components/ui/button";

export const SHORTCUTS: [string, string][] = [
  ["p", "Verdict: pass"],
  ["f", "Verdict: fail"],
  ["1 – 9", "Cycle the n-th element: met → not met → not judged"],
  ["c", "Write a comment"],
  ["Enter or s", "Save the label"],
  ["j", "Next item"],
  ["k", "Previous item"],
  ["?", "This list"],
];

/** The labelling view's keyboard shortcuts, opened with `?` (they work while no text field has focus). */
export const ShortcutsDialog = forwardRef<HTMLDialogElement>(function ShortcutsDialog(_props, ref) {
  const close = () => (ref && typeof ref === "object" ? ref.current?.close() : undefined);
  return (
    <dialog
      ref={ref}
      aria-labelledby="review-shortcuts-title"
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md overflow-y-auto rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="space-y-3 p-5">
        <h2 id="review-shortcuts-title" className="text-base font-semibold">
          Keyboard shortcuts
        </h2>
        <p className="text-sm text-slate-600">They work while the focus is not in a text field.</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          {SHORTCUTS.map(([key, what]) => (
            <div key={key} className="contents">
              <dt>
                <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 font-mono text-xs">{key}</kbd>
              </dt>
              <dd className="text-slate-700">{what}</dd>
            </div>
          ))}
        </dl>
        <div className="flex justify-end pt-2">
          <Button variant="secondary" onClick={close}>
            Close
          </Button>
        </div>
      </div>
    </dialog>
  );
});
