import { Section } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeader, TableRow } from "@/components/ui/table";

/** Shared pieces of the suite trend charts (client components; no Recharts import here). */

export const CHART_COLORS = ["#4f46e5", "#0891b2", "#d97706", "#db2777", "#16a34a", "#7c3aed", "#dc2626", "#475569"];

export const runHref = (workspaceId: string, runId: string) => `/w/${workspaceId}/runs/${runId}`;

/**
 * The trends' x-axis is categorical by run: one category per run, labelled with its number (#42).
 * Numbers are unique within a suite, so no two ticks share a label (several runs can start in the
 * same minute), and the spacing says "next run", not elapsed time. The date is in the tooltip.
 */
export const RUN_AXIS = {
  dataKey: "number",
  type: "category",
  tickFormatter: (n: number) => `#${n}`,
  tick: { fontSize: 11, fill: "#64748b" },
  minTickGap: 8,
  tickLine: false,
  interval: "preserveStartEnd",
} as const;

/** "#1 to #12" (or "#3" for one run): the runs a chart covers, for its summary. */
export function runRange(points: { number: number }[]): string {
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return "";
  return first.number === last.number ? `#${first.number}` : `#${first.number} to #${last.number}`;
}

/** The numbers behind a chart, as a table for screen readers: one row per data point. */
export type ChartTable = { caption: string; columns: string[]; rows: { key: string; cells: React.ReactNode[] }[] };

/**
 * A chart card: a heading, the chart as an image with a one-sentence summary for screen
 * readers, and a visually hidden data table with the same numbers.
 */
export function ChartCard({
  title,
  description,
  summary,
  table,
  controls,
  children,
}: {
  title: string;
  description?: React.ReactNode;
  summary: string;
  table: ChartTable;
  controls?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <Section title={title} description={description} actions={controls} className="p-4">
      <div role="img" aria-label={summary}>
        {children}
      </div>
      <div className="sr-only">
        <Table variant="plain" scroll={false} caption={table.caption}>
          <TableHeader columns={table.columns} />
          <TableBody>
            {table.rows.map((r) => (
              <TableRow key={r.key}>
                {r.cells.map((c, i) => (
                  <TableCell key={i}>{c}</TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </Section>
  );
}

/** The tooltip frame shared by the charts. */
export function TooltipBox({ title, children }: { title: React.ReactNode; children: React.ReactNode }) {
  return (
    <div className="rounded-md border border-slate-200 bg-white px-3 py-2 text-xs shadow-md">
      <p className="mb-1 font-medium text-slate-900">{title}</p>
      <div className="space-y-0.5 text-slate-700">{children}</div>
    </div>
  );
}
