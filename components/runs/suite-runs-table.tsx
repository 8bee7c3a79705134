import Link from "next/link";
import type { RunHistoryRow } from "@/lib/runs/dto";
import { runLabel } from "@/lib/runs/dto";
import type { SuiteRunsKind } from "@/lib/runs/suite-runs-location";
import { runHref } from "./charts-common";
import { RunRow, runRowColumns } from "./run-row-cells";
import { Table, TableBody, TableHeader } from "@/components/ui/table";

/**
 * A page of the suite's runs, newest first: the history (ordinary runs, with their trigger) or
 * the experiments (each named by the comparison arm or matrix combination it is, linked there).
 * Each row is named by its run number, which links to the run page.
 */
export function SuiteRunsTable({ workspaceId, rows, kind }: { workspaceId: string; rows: RunHistoryRow[]; kind: SuiteRunsKind }) {
  return (
    <Table density="compact" caption={kind === "experiment" ? "Experiment runs, newest first" : "Run history, newest first"}>
      <TableHeader columns={["Run", ...runRowColumns(kind === "experiment" ? "Experiment" : "Trigger", "Commit")]} />
      <TableBody>
        {rows.map((r) => (
          <RunRow key={r.id} workspaceId={workspaceId} run={r}>
            <Link
              href={runHref(workspaceId, r.id)}
              aria-label={`Run ${runLabel(r)}`}
              className="font-medium text-indigo-600 tabular-nums hover:underline"
            >
              {runLabel(r)}
            </Link>
          </RunRow>
        ))}
      </TableBody>
    </Table>
  );
}
