"use client";
import { useRouter } from "next/navigation";
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { runLabel, type TrendPoint } from "@/lib/runs/dto";
import { branchAndCommit } from "@/lib/runs/metadata";
import { RUN_STATUS_LABELS } from "./status-badges";
import { formatDateTime, formatDuration, formatPercent } from "./format";
import { ChartCard, RUN_AXIS, TooltipBox, runHref, runRange } from "./charts-common";

function PassRateTooltip({ active, payload }: TooltipContentProps) {
  const p = active ? (payload?.[0]?.payload as TrendPoint | undefined) : undefined;
  if (!p) return null;
  const source = branchAndCommit(p.metadata);
  return (
    <TooltipBox title={`Run ${runLabel(p)} · ${formatDateTime(p.created_at)}`}>
      <p>
        Pass rate: <span className="font-semibold">{formatPercent(p.pass_rate)}</span>
        {p.status !== "completed" && ` (${RUN_STATUS_LABELS[p.status].toLowerCase()})`}
      </p>
      {p.pass_at_1 !== null && (
        <p>
          pass@1: <span className="font-semibold">{formatPercent(p.pass_at_1)}</span>
          {p.pass_at_1_ci95 ? `, 95% interval ${formatInterval(p.pass_at_1_ci95)}` : ""}
        </p>
      )}
      <p>
        {p.passed} passed · {p.failed} failed · {p.errors} errors · {p.skipped} skipped of {p.total}
      </p>
      <p>Duration: {formatDuration(p.duration_ms)}</p>
      {source && <p>{source}</p>}
      <p className="text-slate-500">Click to open the run</p>
    </TooltipBox>
  );
}

/** "40.6%–100%": a pass@1 interval in percent. */
const formatInterval = ([low, high]: [number, number]) => `${formatPercent(low)}–${formatPercent(high)}`;

/** The band's value for Recharts: a [low, high] pair draws a range area; null leaves a gap. */
const intervalOf = (p: TrendPoint) => p.pass_at_1_ci95;

/** "Pass rate per run over the last 2 finished runs (#1 to #2): from 66.7% in #1 to 50% in #2, the latest." */
function summarise(points: TrendPoint[]): string {
  const rated = points.filter((p) => p.pass_rate !== null);
  const runs = points.length === 1 ? "1 finished run" : `the last ${points.length} finished runs`;
  if (rated.length === 0) return `Pass rate per run over ${runs} (${runRange(points)}): none with executed cases.`;
  const first = rated[0]!;
  const last = rated[rated.length - 1]!;
  const latest = last === points[points.length - 1] ? ", the latest" : "";
  return rated.length === 1
    ? `Pass rate per run over ${runs} (${runRange(points)}): ${formatPercent(last.pass_rate)} in ${runLabel(last)}${latest}.`
    : `Pass rate per run over ${runs} (${runRange(points)}): from ${formatPercent(first.pass_rate)} in ${runLabel(first)} to ${formatPercent(last.pass_rate)} in ${runLabel(last)}${latest}.`;
}

/**
 * Pass rate of each finished run of the suite's history (oldest → newest), one point per run
 * joined by straight segments (no interpolation: nothing lies between two runs); a run without
 * executed cases leaves a gap. Behind the line, a shaded band spans each run's 95 % interval of
 * pass@1 (from the run summary; runs finished before trials have none, so no band). Clicking a
 * point opens that run.
 */
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
  const open = (index: unknown) => {
    const p = points[Number(index)];
    if (p && index !== null && index !== undefined) router.push(runHref(workspaceId, p.run_id));
  };
  return (
    <ChartCard
      title="Pass rate trend"
      description="Passed cases out of executed cases (skipped cases excluded), per finished run. The shaded band is the run's 95% interval of pass@1 (errors excluded)."
      summary={summarise(points)}
      controls={controls}
      table={{
        caption: "Pass rate per run",
        columns: [
          "Run",
          "Started",
          "Status",
          "Pass rate",
          "pass@1",
          "95% interval",
          "Passed",
          "Failed",
          "Errors",
          "Skipped",
          "Total",
          "Branch and commit",
        ],
        rows: points.map((p) => ({
          key: p.run_id,
          cells: [
            runLabel(p),
            formatDateTime(p.created_at),
            RUN_STATUS_LABELS[p.status],
            formatPercent(p.pass_rate),
            formatPercent(p.pass_at_1),
            p.pass_at_1_ci95 ? formatInterval(p.pass_at_1_ci95) : "—",
            p.passed,
            p.failed,
            p.errors,
            p.skipped,
            p.total,
            branchAndCommit(p.metadata) ?? "—",
          ],
        })),
      }}
    >
      <div className="h-60">
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart
            data={points}
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
            <XAxis {...RUN_AXIS} />
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
              type="linear"
              dataKey={intervalOf}
              name="pass@1 95% interval"
              stroke="none"
              fill="#4f46e5"
              fillOpacity={0.15}
              dot={false}
              activeDot={false}
              isAnimationActive={false}
            />
            <Area
              type="linear"
              dataKey="pass_rate"
              name="Pass rate"
              stroke="#4f46e5"
              strokeWidth={2}
              fill="url(#pass-rate-fill)"
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
