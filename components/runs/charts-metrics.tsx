"use client";
import { useRouter } from "next/navigation";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import type { MetricTrendPoint } from "@/lib/runs/dto";
import { formatDateTime, formatScore } from "./format";
import { CHART_COLORS, ChartCard, TooltipBox, formatShortTime, runHref } from "./charts-common";

type Datum = MetricTrendPoint & { label: string };

const metricLabel = (name: string) => name.replace(/_/g, " ");

function MetricTooltip({ active, payload }: TooltipContentProps) {
  const p = active ? (payload?.[0]?.payload as Datum | undefined) : undefined;
  if (!p || !payload) return null;
  return (
    <TooltipBox title={formatDateTime(p.created_at)}>
      {payload.map((entry) => (
        <p key={String(entry.name)}>
          <span aria-hidden className="mr-1 inline-block size-2 rounded-full" style={{ backgroundColor: entry.color }} />
          {entry.name}: <span className="font-semibold">{formatScore(typeof entry.value === "number" ? entry.value : null)}</span>
        </p>
      ))}
    </TooltipBox>
  );
}

function summarise(points: MetricTrendPoint[], names: string[]): string {
  const last = points[points.length - 1];
  if (!last) return "Average metric scores per run: no runs with metrics.";
  const latest = names
    .filter((n) => last.averages[n] !== undefined)
    .map((n) => `${metricLabel(n)} ${formatScore(last.averages[n])}`)
    .join(", ");
  return `Average metric scores over ${points.length} runs (${names.map(metricLabel).join(", ")}); latest run: ${latest}.`;
}

/** One line per metric: the run's average score (from the run summary), oldest → newest. */
export function MetricTrendChart({ workspaceId, points, names }: { workspaceId: string; points: MetricTrendPoint[]; names: string[] }) {
  const router = useRouter();
  const data: Datum[] = points.map((p) => ({ ...p, label: formatShortTime(p.created_at) }));
  const labels = new Map(data.map((d) => [d.run_id, d.label]));
  const max = Math.max(1, ...points.flatMap((p) => Object.values(p.averages)));
  return (
    <ChartCard
      title="Average metric scores"
      description="Per-metric average score of each run's case results."
      summary={summarise(points, names)}
      table={{
        caption: "Average metric scores per run",
        columns: ["Run started", ...names.map(metricLabel)],
        rows: points.map((p) => ({
          key: p.run_id,
          cells: [formatDateTime(p.created_at), ...names.map((n) => formatScore(p.averages[n]))],
        })),
      }}
    >
      <div className="h-60">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart
            data={data}
            margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
            className="cursor-pointer"
            onClick={(state) => {
              const p =
                state.activeTooltipIndex === null || state.activeTooltipIndex === undefined
                  ? undefined
                  : data[Number(state.activeTooltipIndex)];
              if (p) router.push(runHref(workspaceId, p.run_id));
            }}
          >
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
            {/* Keyed by run id: several runs can start in the same minute, and categories must be unique. */}
            <XAxis
              dataKey="run_id"
              tickFormatter={(id: string) => labels.get(id) ?? ""}
              tick={{ fontSize: 11, fill: "#64748b" }}
              minTickGap={24}
              tickLine={false}
            />
            <YAxis
              domain={[0, max > 1 ? "auto" : 1]}
              ticks={max > 1 ? undefined : [0, 0.25, 0.5, 0.75, 1]}
              tickFormatter={(v: number) => (max > 1 ? String(Math.round(v)) : v.toFixed(2))}
              tick={{ fontSize: 11, fill: "#64748b" }}
              width={44}
              tickLine={false}
            />
            <Tooltip content={MetricTooltip} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {names.map((name, i) => (
              <Line
                key={name}
                type="monotone"
                name={metricLabel(name)}
                dataKey={(d: Datum) => d.averages[name] ?? null}
                stroke={CHART_COLORS[i % CHART_COLORS.length]}
                strokeWidth={2}
                dot={{ r: 2 }}
                connectNulls
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </ChartCard>
  );
}
