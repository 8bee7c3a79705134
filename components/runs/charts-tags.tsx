"use client";
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import type { TagPassRate } from "@/lib/runs/dto";
import { formatPercent } from "./format";
import { ChartCard, TooltipBox } from "./charts-common";

function TagTooltip({ active, payload }: TooltipContentProps) {
  const t = active ? (payload?.[0]?.payload as TagPassRate | undefined) : undefined;
  if (!t) return null;
  return (
    <TooltipBox title={t.tag}>
      <p>
        Pass rate: <span className="font-semibold">{formatPercent(t.pass_rate)}</span>
      </p>
      <p>
        {t.passed} passed · {t.failed} failed · {t.errors} errors of {t.total} executed
      </p>
    </TooltipBox>
  );
}

const barColor = (rate: number | null) => (rate === null ? "#cbd5e1" : rate >= 90 ? "#16a34a" : rate >= 60 ? "#d97706" : "#dc2626");

function summarise(tags: TagPassRate[]): string {
  const rated = tags.filter((t) => t.pass_rate !== null).sort((a, b) => a.pass_rate! - b.pass_rate!);
  if (rated.length === 0) return `Pass rate by tag: ${tags.length} tags, no executed cases.`;
  const worst = rated[0]!;
  return `Pass rate by tag for ${tags.length} tags; lowest: ${worst.tag} at ${formatPercent(worst.pass_rate)}.`;
}

/** Horizontal bars: the pass rate of the cases carrying each tag (a case counts for each of its tags). */
export function TagPassRateChart({ tags, scope, controls }: { tags: TagPassRate[]; scope: string; controls?: React.ReactNode }) {
  const height = Math.min(600, Math.max(120, tags.length * 28 + 40));
  return (
    <ChartCard
      title="Pass rate by tag"
      description={`Cases with each tag, ${scope}. A case counts once for each of its tags; skipped cases are left out.`}
      summary={summarise(tags)}
      controls={controls}
      table={{
        caption: "Pass rate by tag",
        columns: ["Tag", "Pass rate", "Passed", "Executed"],
        rows: tags.map((t) => ({ key: t.tag, cells: [t.tag, formatPercent(t.pass_rate), t.passed, t.total] })),
      }}
    >
      {tags.length === 0 ? (
        <p className="text-sm text-slate-500">No tagged cases {scope}.</p>
      ) : (
        <div style={{ height }}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={tags} layout="vertical" margin={{ top: 0, right: 16, bottom: 0, left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="#e2e8f0" />
              <XAxis
                type="number"
                domain={[0, 100]}
                ticks={[0, 25, 50, 75, 100]}
                tickFormatter={(v: number) => `${v}%`}
                tick={{ fontSize: 11, fill: "#64748b" }}
                tickLine={false}
              />
              <YAxis type="category" dataKey="tag" width={120} tick={{ fontSize: 12, fill: "#334155" }} tickLine={false} interval={0} />
              <Tooltip content={TagTooltip} cursor={{ fill: "#f1f5f9" }} />
              <Bar dataKey="pass_rate" name="Pass rate" barSize={16} radius={[0, 3, 3, 0]} isAnimationActive={false}>
                {tags.map((t) => (
                  <Cell key={t.tag} fill={barColor(t.pass_rate)} />
                ))}
              </Bar>
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
    </ChartCard>
  );
}
