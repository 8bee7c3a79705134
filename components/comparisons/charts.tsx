"use client";
import { useRouter } from "next/navigation";
import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from "recharts";
import { ChartCard, TooltipBox, type ChartTable } from "@/components/runs/charts-common";
import type { ComparisonChartPair as ChartPair } from "@/lib/comparisons/dto";
import { pairHref } from "./paths";
import { formatMs, pairLabel, signed, VERDICT_CHANGE_LABELS } from "./format";
import type { VerdictChange } from "@/lib/comparisons/diffs";

/**
 * The comparison's four charts (Recharts), each with a one-sentence summary and a screen-reader
 * table: per-pair latency diff and token diff (sorted bars, red where the variant costs more),
 * latency distributions of both arms (overlaid histograms) and baseline vs variant latency with
 * the y = x line. Pairs with an error or skip in either arm are left out, as in the statistics
 * (a failed call records 0 ms and 0 tokens).
 */

const MORE = "#dc2626";
const LESS = "#16a34a";
const ZERO = "#94a3b8";
/** The two arms as the latency histogram draws them, in legend order. */
const ARM_SERIES = [
  { key: "baseline", name: "Baseline (A)", color: "#64748b" },
  { key: "variant", name: "Variant (B)", color: "#4f46e5" },
] as const;
/** The screen-reader tables list at most this many rows (the pairs table and the CSV export have all). */
const MAX_TABLE_ROWS = 300;
/** Axis ticks and axis labels: small slate text. */
const axisText = { fontSize: 11, fill: "#64748b" };

type Point = ChartPair & { label: string };

const signColor = (n: number) => (n > 0 ? MORE : n < 0 ? LESS : ZERO);

function comparable(pairs: ChartPair[], repetitions: number): Point[] {
  return pairs
    .filter((p) => p.verdict_change !== "error" && p.baseline_latency_ms !== null && p.variant_latency_ms !== null)
    .map((p) => ({ ...p, label: pairLabel(p, repetitions) }));
}

function capped(table: ChartTable): ChartTable {
  if (table.rows.length <= MAX_TABLE_ROWS) return table;
  const rest = table.rows.length - MAX_TABLE_ROWS;
  return {
    ...table,
    rows: [
      ...table.rows.slice(0, MAX_TABLE_ROWS),
      { key: "__more", cells: [`… ${rest} more pairs: see the pairs table or the CSV export`, ...table.columns.slice(1).map(() => "")] },
    ],
  };
}

function PairTooltip({ active, payload }: TooltipContentProps) {
  const p = active ? (payload?.[0]?.payload as Point | undefined) : undefined;
  if (!p) return null;
  return (
    <TooltipBox title={p.label}>
      <p>
        Latency A {formatMs(p.baseline_latency_ms)} → B {formatMs(p.variant_latency_ms)} (
        <span className="font-semibold">{signed(p.latency_diff_ms, " ms")}</span>)
      </p>
      <p>
        Token overhead: <span className="font-semibold">{signed(p.token_overhead)}</span>
      </p>
      {p.verdict_change && <p>{VERDICT_CHANGE_LABELS[p.verdict_change as VerdictChange] ?? p.verdict_change}</p>}
      <p className="text-slate-500">Click to open the pair</p>
    </TooltipBox>
  );
}

type ChartProps = { workspaceId: string; comparisonId: string; pairs: ChartPair[]; repetitions: number };

function useOpenPair(workspaceId: string, comparisonId: string) {
  const router = useRouter();
  return (p: Point | undefined) => {
    if (p) router.push(pairHref(workspaceId, comparisonId, p.index));
  };
}

function DiffBars({ workspaceId, comparisonId, pairs, repetitions, kind }: ChartProps & { kind: "latency" | "tokens" }) {
  const open = useOpenPair(workspaceId, comparisonId);
  const key = kind === "latency" ? "latency_diff_ms" : "token_overhead";
  const unit = kind === "latency" ? " ms" : " tokens";
  const data = comparable(pairs, repetitions)
    .filter((p) => p[key] !== null)
    .sort((a, b) => a[key]! - b[key]! || a.index - b.index);
  const more = data.filter((p) => p[key]! > 0).length;
  const less = data.filter((p) => p[key]! < 0).length;
  // Bars of height zero would draw bare axes: say so instead.
  const same = data.length > 0 && more === 0 && less === 0;
  const title = kind === "latency" ? "Latency diff per case" : "Token diff per case";
  const what = kind === "latency" ? "slower" : "more tokens";
  const whatLess = kind === "latency" ? "faster" : "fewer tokens";
  const summary =
    data.length === 0
      ? `${title}: no comparable pairs yet.`
      : `${title}, variant minus baseline, sorted: ${more} of ${data.length} pairs ${what}, ${less} ${whatLess}; from ${signed(data[0]![key], unit)} to ${signed(data[data.length - 1]![key], unit)}.`;

  return (
    <ChartCard
      title={title}
      description={`Variant − baseline per pair, sorted; red: the variant ${kind === "latency" ? "was slower" : "used more tokens"}, green: ${kind === "latency" ? "faster" : "fewer"}.`}
      summary={summary}
      table={capped({
        caption: `${title} (variant − baseline), sorted`,
        columns: ["Case", kind === "latency" ? "Latency diff (ms)" : "Token diff", "Baseline latency", "Variant latency"],
        rows: data.map((p) => ({
          key: String(p.index),
          cells: [p.label, signed(p[key], unit), formatMs(p.baseline_latency_ms), formatMs(p.variant_latency_ms)],
        })),
      })}
    >
      <div className="h-60">
        {data.length === 0 ? (
          <EmptyChart />
        ) : same ? (
          <EmptyChart text={`No differences: every pair ${kind === "latency" ? "took as long" : "used as many tokens"} in both arms.`} />
        ) : (
          <ResponsiveContainer width="100%" height="100%">
            <BarChart
              data={data}
              margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
              onClick={(state) => open(data[Number(state.activeTooltipIndex)])}
              className="cursor-pointer"
            >
              <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
              <XAxis dataKey="index" tick={false} tickLine={false} label={{ value: "pairs, sorted", ...axisText }} height={24} />
              <YAxis tick={axisText} tickLine={false} width={56} tickFormatter={(v: number) => signed(v)} />
              <ReferenceLine y={0} stroke="#475569" />
              <Tooltip content={PairTooltip} cursor={{ fill: "#f1f5f9" }} />
              <Bar dataKey={key} name={title} isAnimationActive={false}>
                {data.map((p) => (
                  <Cell key={p.index} fill={signColor(p[key]!)} />
                ))}
              </Bar>
            </BarChart>
          </ResponsiveContainer>
        )}
      </div>
    </ChartCard>
  );
}

export function LatencyDiffChart(props: ChartProps) {
  return <DiffBars {...props} kind="latency" />;
}

export function TokenDiffChart(props: ChartProps) {
  return <DiffBars {...props} kind="tokens" />;
}

/** Shared bins over both arms' latencies: about √n bins (5–30), rounded to a readable width. */
export function histogram(a: number[], b: number[]): { from: number; to: number; baseline: number; variant: number }[] {
  const all = [...a, ...b];
  if (all.length === 0) return [];
  const min = Math.min(...all);
  const max = Math.max(...all);
  const count = Math.min(30, Math.max(5, Math.round(Math.sqrt(Math.max(a.length, b.length)))));
  const raw = (max - min) / count || 1;
  const step = niceStep(raw);
  const start = Math.floor(min / step) * step;
  // Bins are [from, to); the largest value opens the last bin.
  const n = Math.floor((max - start) / step) + 1;
  const bins = Array.from({ length: n }, (_, i) => ({ from: start + i * step, to: start + (i + 1) * step, baseline: 0, variant: 0 }));
  const put = (x: number, arm: "baseline" | "variant") => {
    const i = Math.min(n - 1, Math.floor((x - start) / step));
    bins[i]![arm]++;
  };
  a.forEach((x) => put(x, "baseline"));
  b.forEach((x) => put(x, "variant"));
  return bins;
}

function niceStep(raw: number): number {
  const p = 10 ** Math.floor(Math.log10(raw));
  const f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

export function LatencyDistributionChart({ pairs, repetitions }: ChartProps) {
  const data = comparable(pairs, repetitions);
  const bins = histogram(
    data.map((p) => p.baseline_latency_ms!),
    data.map((p) => p.variant_latency_ms!),
  ).map((b) => ({ ...b, label: `${Math.round(b.from)}–${Math.round(b.to)} ms` }));
  const summary =
    data.length === 0
      ? "Latency distributions: no comparable pairs yet."
      : `Latency distributions of ${data.length} comparable pairs in ${bins.length} bins of ${Math.round(bins[0]!.to - bins[0]!.from)} ms: the baseline's most common bin is ${mode(bins, "baseline")}, the variant's ${mode(bins, "variant")}.`;
  return (
    <ChartCard
      title="Latency distributions"
      description="How many executions of each arm fell in each latency bin (overlaid histograms)."
      summary={summary}
      table={{
        caption: "Latency distribution per arm",
        columns: ["Latency bin", "Baseline executions", "Variant executions"],
        rows: bins.map((b) => ({ key: b.label, cells: [b.label, b.baseline, b.variant] })),
      }}
    >
      <div className="h-60">
        {bins.length === 0 ? (
          <EmptyChart />
        ) : (
          <ResponsiveContainer width="100%" height="100%">
            <AreaChart data={bins} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
              <XAxis dataKey="label" tick={axisText} tickLine={false} minTickGap={24} />
              <YAxis tick={axisText} tickLine={false} width={40} allowDecimals={false} />
              <Tooltip
                content={({ active, payload }: TooltipContentProps) => {
                  const b = active ? (payload?.[0]?.payload as (typeof bins)[number] | undefined) : undefined;
                  if (!b) return null;
                  return (
                    <TooltipBox title={b.label}>
                      <p>Baseline: {b.baseline}</p>
                      <p>Variant: {b.variant}</p>
                    </TooltipBox>
                  );
                }}
              />
              <Legend wrapperStyle={{ fontSize: 12 }} />
              {ARM_SERIES.map((arm) => (
                <Area
                  key={arm.key}
                  type="step"
                  dataKey={arm.key}
                  name={arm.name}
                  stroke={arm.color}
                  fill={arm.color}
                  fillOpacity={0.25}
                  isAnimationActive={false}
                />
              ))}
            </AreaChart>
          </ResponsiveContainer>
        )}
      </div>
    </ChartCard>
  );
}

function mode(bins: { label: string; baseline: number; variant: number }[], arm: "baseline" | "variant"): string {
  let best = bins[0]!;
  for (const b of bins) if (b[arm] > best[arm]) best = b;
  return best.label;
}

export function LatencyScatterChart({ workspaceId, comparisonId, pairs, repetitions }: ChartProps) {
  const open = useOpenPair(workspaceId, comparisonId);
  const data = comparable(pairs, repetitions).map((p) => ({ ...p, x: p.baseline_latency_ms!, y: p.variant_latency_ms! }));
  const max = Math.max(1, ...data.flatMap((p) => [p.x, p.y]));
  const top = niceStep(max / 5) * Math.ceil(max / niceStep(max / 5));
  // Both axes share one scale, so the dashed y = x line is the diagonal.
  const sameScale = { type: "number", domain: [0, top], tick: axisText, tickLine: false } as const;
  const above = data.filter((p) => p.y > p.x).length;
  const summary =
    data.length === 0
      ? "Baseline vs variant latency: no comparable pairs yet."
      : `Baseline vs variant latency for ${data.length} pairs: ${above} above the y = x line (variant slower), ${data.filter((p) => p.y < p.x).length} below (variant faster).`;
  return (
    <ChartCard
      title="Baseline vs variant latency"
      description="One point per pair; above the dashed y = x line the variant was slower."
      summary={summary}
      table={capped({
        caption: "Baseline and variant latency per pair",
        columns: ["Case", "Baseline latency", "Variant latency"],
        rows: data.map((p) => ({ key: String(p.index), cells: [p.label, formatMs(p.x), formatMs(p.y)] })),
      })}
    >
      <div className="h-72">
        {data.length === 0 ? (
          <EmptyChart />
        ) : (
          <ResponsiveContainer width="100%" height="100%">
            <ScatterChart margin={{ top: 8, right: 16, bottom: 16, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
              <XAxis
                {...sameScale}
                dataKey="x"
                name="Baseline"
                label={{ value: "Baseline latency (ms)", position: "insideBottom", offset: -8, ...axisText }}
              />
              <YAxis
                {...sameScale}
                dataKey="y"
                name="Variant"
                width={56}
                label={{ value: "Variant (ms)", angle: -90, position: "insideLeft", ...axisText }}
              />
              <ReferenceLine
                segment={[
                  { x: 0, y: 0 },
                  { x: top, y: top },
                ]}
                stroke="#475569"
                strokeDasharray="4 4"
                ifOverflow="hidden"
              />
              <Tooltip content={PairTooltip} cursor={{ strokeDasharray: "3 3" }} />
              <Scatter
                data={data}
                name="Pairs"
                isAnimationActive={false}
                onClick={(d: unknown) => open((d as { payload?: Point }).payload)}
                className="cursor-pointer"
              >
                {data.map((p) => (
                  <Cell key={p.index} fill={signColor(p.y - p.x)} fillOpacity={0.75} />
                ))}
              </Scatter>
            </ScatterChart>
          </ResponsiveContainer>
        )}
      </div>
    </ChartCard>
  );
}

function EmptyChart({ text = "No comparable pairs yet." }: { text?: string }) {
  return <p className="flex h-full items-center justify-center text-sm text-slate-500">{text}</p>;
}

/** The four charts in a grid. */
export function ComparisonCharts(props: ChartProps) {
  return (
    <div className="grid gap-4 xl:grid-cols-2">
      <LatencyDiffChart {...props} />
      <TokenDiffChart {...props} />
      <LatencyDistributionChart {...props} />
      <LatencyScatterChart {...props} />
    </div>
  );
}
