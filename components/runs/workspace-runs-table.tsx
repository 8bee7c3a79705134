import Link from "next/link";
import type { WorkspaceRunRow } from "@/lib/runs/workspace-runs/service";
import { runLabel } from "@/lib/runs/dto";
import { runHref } from "./charts-common";
import { RunRow, runRowColumns } from "./run-row-cells";
import { Table, TableBody, TableEmpty, TableHeader } from "@/components/ui/table";

/** A page of the workspace's runs across suites, newest first; each row is named by its suite and run number. */
export function WorkspaceRunsTable({ workspaceId, rows }: { workspaceId: string; rows: WorkspaceRunRow[] }) {
  const columns = ["Run", ...runRowColumns("Trigger", "Metadata")];
  return (
    <Table density="compact" caption="Runs, newest first">
      <TableHeader columns={columns} />
      <TableBody>
        {rows.length === 0 && <TableEmpty colSpan={columns.length}>No run matches these filters.</TableEmpty>}
        {rows.map((r) => (
          <RunRow key={r.id} workspaceId={workspaceId} run={r}>
            <Link href={runHref(workspaceId, r.id)} className="font-medium text-indigo-600 hover:underline">
              {r.suite_name} <span className="tabular-nums">{runLabel(r)}</span>
            </Link>
          </RunRow>
        ))}
      </TableBody>
    </Table>
  );
}
