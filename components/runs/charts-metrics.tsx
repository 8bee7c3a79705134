"use client";
import { useRouter } from "next/navigation";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { runLabel, type MetricTrendPoint } from "@/lib/runs/dto";
import { formatDateTime, formatScore } from "./format";
import { CHART_COLORS, ChartCard, RUN_AXIS, TooltipBox, runHref, runRange } from "./charts-common";

const metricLabel = (name: string) => name.replace(/_/g, " ");

function MetricTooltip({ active, payload }: TooltipContentProps) {
  const p = active ? (payload?.[0]?.payload as MetricTrendPoint | undefined) : undefined;
  if (!p || !payload) return null;
  return (
    <TooltipBox title={`Run ${runLabel(p)} · ${formatDateTime(p.created_at)}`}>
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
  const runs = points.length === 1 ? "1 run" : `${points.length} runs`;
  return `Average metric scores over ${runs}, ${runRange(points)} (${names.map(metricLabel).join(", ")}); latest run ${runLabel(last)}: ${latest}.`;
}

/** One line per metric: the run's average score (from the run summary), oldest → newest, straight segments between runs. */
export function MetricTrendChart({ workspaceId, points, names }: { workspaceId: string; points: MetricTrendPoint[]; names: string[] }) {
  const router = useRouter();
  const max = Math.max(1, ...points.flatMap((p) => Object.values(p.averages)));
  return (
    <ChartCard
      title="Average metric scores"
      description="Per-metric average score of each run's case results."
      summary={summarise(points, names)}
      table={{
        caption: "Average metric scores per run",
        columns: ["Run", "Started", ...names.map(metricLabel)],
        rows: points.map((p) => ({
          key: p.run_id,
          cells: [runLabel(p), formatDateTime(p.created_at), ...names.map((n) => formatScore(p.averages[n]))],
        })),
      }}
    >
      <div className="h-60">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart
            data={points}
            margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
            className="cursor-pointer"
            onClick={(state) => {
              const p =
                state.activeTooltipIndex === null || state.activeTooltipIndex === undefined
                  ? undefined
                  : points[Number(state.activeTooltipIndex)];
              if (p) router.push(runHref(workspaceId, p.run_id));
            }}
          >
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
            <XAxis {...RUN_AXIS} />
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
                type="linear"
                name={metricLabel(name)}
                dataKey={(d: MetricTrendPoint) => d.averages[name] ?? null}
                stroke={CHART_COLORS[i % CHART_COLORS.length]}
                strokeWidth={2}
                dot={{ r: 2 }}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </ChartCard>
  );
}
