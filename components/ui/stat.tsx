import { cn } from "./cn";

/**
 * One figure of a `<dl>` of stats (tokens, latency, retries…): the small label over the value.
 * `tone` colours the value (a failure count in red); `testId` names the value for e2e checks;
 * `hint` says under the value what it measures.
 */
export function Stat({
  label,
  value,
  tone,
  title,
  testId,
  hint,
}: {
  label: string;
  value: string;
  tone?: string;
  title?: string;
  testId?: string;
  hint?: string;
}) {
  return (
    <div title={title}>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className={cn("mt-0.5 text-slate-900 tabular-nums", tone)} data-testid={testId}>
        {value}
      </dd>
      {hint && <dd className="text-xs text-slate-500">{hint}</dd>}
    </div>
  );
}
