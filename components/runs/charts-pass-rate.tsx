"use client";
import { useRouter } from "next/navigation";
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import type { TrendPoint } from "@/lib/runs/dto";
import { RUN_STATUS_LABELS } from "./status-badges";
import { formatDateTime, formatDuration, formatPercent } from "./format";
import { ChartCard, TooltipBox, formatShortTime, runHref } from "./charts-common";

type Datum = TrendPoint & { label: string };

function PassRateTooltip({ active, payload }: TooltipContentProps) {
  const p = active ? (payload?.[0]?.payload as Datum | undefined) : undefined;
  if (!p) return null;
  return (
    <TooltipBox title={formatDateTime(p.created_at)}>
      <p>
        Pass rate: <span className="font-semibold">{formatPercent(p.pass_rate)}</span>
        {p.status !== "completed" && ` (${RUN_STATUS_LABELS[p.status].toLowerCase()})`}
      </p>
      <p>
        {p.passed} passed · {p.failed} failed · {p.errors} errors · {p.skipped} skipped of {p.total}
      </p>
      <p>Duration: {formatDuration(p.duration_ms)}</p>
      <p className="text-slate-500">Click to open the run</p>
    </TooltipBox>
  );
}

function summarise(points: TrendPoint[]): string {
  const rated = points.filter((p) => p.pass_rate !== null);
  if (rated.length === 0) return `Pass rate per run: ${points.length} finished runs, none with executed cases.`;
  const first = rated[0]!;
  const last = rated[rated.length - 1]!;
  return rated.length === 1
    ? `Pass rate per run: one run, ${formatPercent(last.pass_rate)}.`
    : `Pass rate per run over the last ${points.length} finished runs: from ${formatPercent(first.pass_rate)} to ${formatPercent(last.pass_rate)} in the latest run.`;
}

/** Pass rate of each finished run (oldest → newest); clicking a point opens that run. */
export function PassRateChart({
  workspaceId,
  points,
  controls,
}: {
  workspaceId: string;
  points: TrendPoint[];
  controls?: React.ReactNode;
}) {
  const router = useRouter();
  const data: Datum[] = points.map((p) => ({ ...p, label: formatShortTime(p.created_at) }));
  const labels = new Map(data.map((d) => [d.run_id, d.label]));
  const open = (index: unknown) => {
    const p = data[Number(index)];
    if (p && index !== null && index !== undefined) router.push(runHref(workspaceId, p.run_id));
  };
  return (
    <ChartCard
      title="Pass rate trend"
      description="Passed cases out of executed cases (skipped cases excluded), per finished run."
      summary={summarise(points)}
      controls={controls}
      table={{
        caption: "Pass rate per run",
        columns: ["Run started", "Status", "Pass rate", "Passed", "Failed", "Errors", "Skipped", "Total"],
        rows: points.map((p) => ({
          key: p.run_id,
          cells: [
            formatDateTime(p.created_at),
            RUN_STATUS_LABELS[p.status],
            formatPercent(p.pass_rate),
            p.passed,
            p.failed,
            p.errors,
            p.skipped,
            p.total,
          ],
        })),
      }}
    >
      <div className="h-60">
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart
            data={data}
            margin={{ top: 8, right: 16, bottom: 0, left: 0 }}
            onClick={(state) => open(state.activeTooltipIndex)}
            className="cursor-pointer"
          >
            <defs>
              <linearGradient id="pass-rate-fill" x1="0" y1="0" x2="0" y2="1">
                <stop offset="0%" stopColor="#4f46e5" stopOpacity={0.25} />
                <stop offset="100%" stopColor="#4f46e5" stopOpacity={0.02} />
              </linearGradient>
            </defs>
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
              domain={[0, 100]}
              ticks={[0, 25, 50, 75, 100]}
              tickFormatter={(v: number) => `${v}%`}
              tick={{ fontSize: 11, fill: "#64748b" }}
              width={44}
              tickLine={false}
            />
            <Tooltip content={PassRateTooltip} />
            <Area
              type="monotone"
              dataKey="pass_rate"
              name="Pass rate"
              stroke="#4f46e5"
              strokeWidth={2}
              fill="url(#pass-rate-fill)"
              connectNulls
              dot={{ r: 3, fill: "#4f46e5" }}
              activeDot={{ r: 6 }}
              isAnimationActive={false}
            />
          </AreaChart>
        </ResponsiveContainer>
      </div>
    </ChartCard>
  );
}
