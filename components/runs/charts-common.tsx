import { Section } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeader, TableRow } from "@/components/ui/table";

/** Shared pieces of the suite trend charts (client components; no Recharts import here). */

export const CHART_COLORS = ["#4f46e5", "#0891b2", "#d97706", "#db2777", "#16a34a", "#7c3aed", "#dc2626", "#475569"];

const shortTime = new Intl.DateTimeFormat("en", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});
/** "Mar 1, 10:00" in UTC, so server and client markup agree. */
export const formatShortTime = (iso: string) => shortTime.format(new Date(iso));

export const runHref = (workspaceId: string, runId: string) => `/w/${workspaceId}/runs/${runId}`;

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
