import Link from "next/link";
import type { ComparisonDto } from "@/lib/comparisons/dto";
import { Table, TableBody, TableCell, TableHeader, TableRow, numeric } from "@/components/ui/table";
import { cn } from "@/components/ui/cn";
import { formatDateTime } from "@/components/runs/format";
import { comparisonHref } from "./paths";
import { costTone, formatRate, SOURCE_LABELS, signed } from "./format";
import { ComparisonStatusBadge } from "./status-badge";

const num = "text-right tabular-nums whitespace-nowrap";

/** A suite's comparisons, newest first, with their headline numbers (variant − baseline). */
export function ComparisonList({ workspaceId, rows }: { workspaceId: string; rows: ComparisonDto[] }) {
  return (
    <Table density="compact" caption="Comparisons, newest first">
      <TableHeader
        columns={[
          "Comparison",
          "Status",
          "Created",
          ...numeric(["Pairs", "Pass rate A → B", "Median latency diff", "Token overhead", "Success rate"]),
        ]}
      />
      <TableBody>
        {rows.map((c) => {
          const s = c.summary;
          const title = c.name || `${c.baseline?.label ?? "Baseline"} vs ${c.variant?.label ?? "Variant"}`;
          const latency = s?.diffs.latency_diff_ms.median ?? null;
          const tokens = s?.diffs.token_overhead_pct.mean ?? null;
          return (
            <TableRow key={c.id} className="hover:bg-slate-50">
              <TableCell className="max-w-80">
                <Link href={comparisonHref(workspaceId, c.id)} className="font-medium text-indigo-700 hover:underline">
                  {title}
                </Link>
                <p className="text-xs text-slate-500">
                  {SOURCE_LABELS[c.source] ?? c.source} · {c.baseline?.label ?? "A"} vs {c.variant?.label ?? "B"}
                </p>
              </TableCell>
              <TableCell>
                <ComparisonStatusBadge status={c.status} />
              </TableCell>
              <TableCell className="whitespace-nowrap text-slate-700">{formatDateTime(c.created_at)}</TableCell>
              <TableCell className={num}>
                {c.completed_pairs}/{c.total_pairs}
              </TableCell>
              <TableCell className={num}>{s ? `${formatRate(s.baseline.pass_rate)} → ${formatRate(s.variant.pass_rate)}` : "—"}</TableCell>
              <TableCell className={cn(num, costTone(latency))}>{signed(latency, " ms")}</TableCell>
              <TableCell className={cn(num, costTone(tokens))}>{signed(tokens, " %")}</TableCell>
              <TableCell className={num}>{formatRate(s?.success_rate)}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
