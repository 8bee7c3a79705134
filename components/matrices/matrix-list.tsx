import Link from "next/link";
import type { MatrixSummaryDto } from "@/lib/matrices/dto";
import { Badge } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeader, TableRow, numeric } from "@/components/ui/table";
import { formatDateTime } from "@/components/runs/format";
import { MATRIX_STATUS_LABELS, MATRIX_STATUS_TONES, matrixHref } from "./format";

/** A suite's matrix runs, newest first: name, axes, status, progress. */
export function MatrixList({ workspaceId, rows }: { workspaceId: string; rows: MatrixSummaryDto[] }) {
  return (
    <Table density="compact" caption="Matrix runs, newest first">
      <TableHeader columns={["Matrix", "Axes", "Status", "Created", ...numeric(["Combinations", "Repetitions"])]} />
      <TableBody>
        {rows.map((m) => (
          <TableRow key={m.id} className="hover:bg-slate-50">
            <TableCell className="max-w-80">
              <Link href={matrixHref(workspaceId, m.id)} className="font-medium text-indigo-700 hover:underline">
                {m.name}
              </Link>
            </TableCell>
            <TableCell className="max-w-96 text-slate-700">
              {Object.entries(m.axes)
                .map(([name, values]) => `${name}: ${values.map((v) => String(v)).join(", ")}`)
                .join(" × ")}
            </TableCell>
            <TableCell>
              <Badge tone={MATRIX_STATUS_TONES[m.status]}>{MATRIX_STATUS_LABELS[m.status]}</Badge>
            </TableCell>
            <TableCell className="whitespace-nowrap text-slate-700">{formatDateTime(m.created_at)}</TableCell>
            <TableCell className="text-right tabular-nums">
              {m.finished_combinations}/{m.total_combinations}
            </TableCell>
            <TableCell className="text-right tabular-nums">{m.repetitions}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
