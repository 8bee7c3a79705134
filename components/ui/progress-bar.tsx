import { cn } from "./cn";

/**
 * A labelled progress bar: `value` of `max` done, `text` read out instead of the bare numbers
 * ("12 of 40 cases done"). The filled part pulses while work goes on; `children` split it into
 * coloured segments (a run's passed/failed/error share), otherwise it is one colour.
 */
export function ProgressBar({
  label,
  value,
  max,
  text,
  pulse,
  fillClassName = "bg-indigo-500",
  children,
}: {
  label: string;
  value: number;
  max: number;
  text: string;
  pulse: boolean;
  /** Classes of the filled part (its colour, or `flex` for segments). */
  fillClassName?: string;
  children?: React.ReactNode;
}) {
  const pct = max > 0 ? Math.round((value / max) * 100) : 0;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      aria-valuetext={text}
      className="h-3 w-full overflow-hidden rounded-full bg-slate-100"
    >
      <div className={cn("h-full transition-[width] duration-500", fillClassName, pulse && "animate-pulse")} style={{ width: `${pct}%` }}>
        {children}
      </div>
    </div>
  );
}
