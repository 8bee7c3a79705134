"use client";
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import type { CombinationDto } from "@/lib/matrices/dto";
import { ChartCard, TooltipBox, type ChartTable } from "@/components/runs/charts-common";
import { formatMs, formatRate, formatTokens, shortName } from "./format";

/**
 * Per-combination bar charts (Recharts): pass rate, median latency and mean tokens, each with
 * a one-sentence summary and a screen-reader table. Bars are named C1…Cn; the tooltip and the
 * tables give each combination's values.
 */

const BAR = "#4f46e5";
const BEST = "#16a34a";
const axisTick = { fontSize: 11, fill: "#64748b" };

type Point = { name: string; label: string; value: number | null; extra: string };

function CombinationTooltip({ active, payload }: TooltipContentProps) {
  const p = active ? (payload?.[0]?.payload as Point | undefined) : undefined;
  if (!p) return null;
  return (
    <TooltipBox title={`${p.name}: ${p.label}`}>
      <p className="font-semibold">{p.extra}</p>
    </TooltipBox>
  );
}

function CombinationBars({
  title,
  description,
  points,
  format,
  unit,
  best,
  lowerIsBetter,
}: {
  title: string;
  description: string;
  points: Point[];
  format: (n: number | null) => string;
  unit: string;
  best: number | null;
  lowerIsBetter?: boolean;
}) {
  const known = points.filter((p) => p.value !== null);
  const top = known.length ? known.reduce((a, b) => ((lowerIsBetter ? b.value! < a.value! : b.value! > a.value!) ? b : a)) : null;
  const summary = top
    ? `${title} per combination; ${lowerIsBetter ? "lowest" : "highest"}: ${top.name} (${top.label}) with ${format(top.value)}.`
    : `${title} per combination: no data yet.`;
  const table: ChartTable = {
    caption: `${title} per combination`,
    columns: ["Combination", "Values", title],
    rows: points.map((p) => ({ key: p.name, cells: [p.name, p.label, format(p.value)] })),
  };
  return (
    <ChartCard title={title} description={description} summary={summary} table={table}>
      <ResponsiveContainer width="100%" height={200}>
        <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="name" tick={axisTick} />
          <YAxis tick={axisTick} width={48} unit={unit} />
          <Tooltip content={(props) => <CombinationTooltip {...props} />} cursor={{ fill: "#f1f5f9" }} />
          <Bar dataKey="value" isAnimationActive={false}>
            {points.map((p, i) => (
              <Cell key={p.name} fill={best === i ? BEST : BAR} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

export function MatrixCharts({ combinations, bestIndex }: { combinations: CombinationDto[]; bestIndex: number | null }) {
  const point = (c: CombinationDto, value: number | null, extra: string): Point => ({
    name: shortName(c.index),
    label: c.label,
    value,
    extra,
  });
  const executed = (c: CombinationDto) => c.passed + c.failed + c.errors > 0;
  return (
    <div className="grid gap-3 lg:grid-cols-3">
      <CombinationBars
        title="Pass rate"
        description="Passed of the executed cases (green: the best combination)."
        unit="%"
        format={formatRate}
        best={bestIndex}
        points={combinations.map((c) =>
          point(
            c,
            executed(c) ? c.pass_rate : null,
            `${formatRate(c.pass_rate)} · ${c.passed} passed, ${c.failed} failed, ${c.errors} errors`,
          ),
        )}
      />
      <CombinationBars
        title="Latency p50"
        description="Median agent latency per case (p95 in the tooltip)."
        unit=" ms"
        format={formatMs}
        best={bestIndex}
        lowerIsBetter
        points={combinations.map((c) =>
          point(c, c.latency_p50_ms, `p50 ${formatMs(c.latency_p50_ms)} · p95 ${formatMs(c.latency_p95_ms)}`),
        )}
      />
      <CombinationBars
        title="Mean tokens"
        description="Prompt + completion tokens per executed case."
        unit=""
        format={formatTokens}
        best={bestIndex}
        lowerIsBetter
        points={combinations.map((c) => point(c, c.mean_total_tokens, `${formatTokens(c.mean_total_tokens)} tokens per case`))}
      />
    </div>
  );
}
