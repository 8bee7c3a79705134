"use client";
import { cn } from "@/components/ui/cn";

/** A reviewer's verdict on one judged element: met, not met, or not judged (left out of the label). */
export type ElementValue = boolean | undefined;

const CHOICES: { value: ElementValue; label: string; on: string }[] = [
  { value: true, label: "Met", on: "border-green-600 bg-green-50 text-green-800" },
  { value: false, label: "Not met", on: "border-red-600 bg-red-50 text-red-800" },
  { value: undefined, label: "Not judged", on: "border-slate-500 bg-slate-100 text-slate-800" },
];

/** Met → not met → not judged → met: what the number key of an element steps through. */
export const nextElementValue = (v: ElementValue): ElementValue => (v === undefined ? true : v ? false : undefined);

/**
 * The three choices of one element as a radio group (arrow keys move within it; the labelling
 * view's number keys cycle it). Read-only shows the choice as text.
 */
export function ElementToggle({
  name,
  label,
  value,
  onChange,
  disabled,
}: {
  name: string;
  label: string;
  value: ElementValue;
  onChange: (v: ElementValue) => void;
  disabled?: boolean;
}) {
  return (
    <div role="radiogroup" aria-label={label} className="flex flex-wrap gap-1">
      {CHOICES.map((c) => {
        const checked = c.value === value;
        return (
          <label
            key={c.label}
            className={cn(
              "cursor-pointer rounded border px-2 py-0.5 text-xs font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500",
              checked ? c.on : "border-slate-300 bg-white text-slate-700",
              disabled && "cursor-default",
            )}
          >
            <input type="radio" className="sr-only" name={name} checked={checked} disabled={disabled} onChange={() => onChange(c.value)} />
            {c.label}
          </label>
        );
      })}
    </div>
  );
}
