import { cn } from "./cn";

/** A pill that is on or off (a tag in a filter or on a case): a button whose pressed state screen readers announce. */
export function ToggleChip({
  on,
  className,
  ...props
}: { on: boolean } & Omit<React.ButtonHTMLAttributes<HTMLButtonElement>, "type" | "aria-pressed">) {
  return (
    <button
      type="button"
      aria-pressed={on}
      className={cn(
        "rounded-full border px-2.5 py-0.5 text-xs font-medium",
        on ? "border-indigo-600 bg-indigo-600 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50",
        className,
      )}
      {...props}
    />
  );
}
