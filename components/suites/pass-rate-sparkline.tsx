/**
 * A suite's pass rate over its last completed runs (oldest → newest) as a small SVG line, with
 * the last pass rate next to it. Screen readers get one sentence (role="img" + aria-label) instead
 * of the drawing. Server-rendered: no chart library, no client JavaScript.
 */

const WIDTH = 80;
const HEIGHT = 20;
const PAD = 2;

const percent = (v: number) => `${Number.isInteger(v) ? v : v.toFixed(1)}%`;

/** "Pass rate over the last 12 runs: 80% → 92%", or "… of the last run: 92%" for one run. */
export function sparklineLabel(rates: number[]): string {
  if (rates.length === 1) return `Pass rate of the last run: ${percent(rates[0]!)}`;
  return `Pass rate over the last ${rates.length} runs: ${percent(rates[0]!)} → ${percent(rates[rates.length - 1]!)}`;
}

export function PassRateSparkline({ rates }: { rates: number[] }) {
  if (rates.length === 0) return <span className="text-xs text-slate-500">No completed runs</span>;
  const last = rates[rates.length - 1]!;
  const step = rates.length > 1 ? (WIDTH - 2 * PAD) / (rates.length - 1) : 0;
  const points = rates.map(
    (r, i) => [PAD + (rates.length > 1 ? i * step : (WIDTH - 2 * PAD) / 2), PAD + ((100 - r) / 100) * (HEIGHT - 2 * PAD)] as const,
  );
  const [lx, ly] = points[points.length - 1]!;
  const tone = last >= 90 ? "text-emerald-600" : last >= 70 ? "text-amber-600" : "text-rose-600";
  return (
    <span className="flex items-center gap-2">
      <svg
        role="img"
        aria-label={sparklineLabel(rates)}
        width={WIDTH}
        height={HEIGHT}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className={`shrink-0 ${tone}`}
      >
        {/* 50 % guide line */}
        <line x1={0} x2={WIDTH} y1={HEIGHT / 2} y2={HEIGHT / 2} className="stroke-slate-200" strokeWidth={1} />
        {points.length > 1 && (
          <polyline
            points={points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ")}
            fill="none"
            stroke="currentColor"
            strokeWidth={1.5}
            strokeLinejoin="round"
            strokeLinecap="round"
          />
        )}
        <circle cx={lx} cy={ly} r={2} fill="currentColor" />
      </svg>
      <span className="text-sm font-medium text-slate-800 tabular-nums">{percent(last)}</span>
    </span>
  );
}
