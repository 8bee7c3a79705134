import type { CleanupRecordDto } from "@/lib/retention/dto";
import { Table, TableBody, TableCell, TableEmpty, TableHeader, TableRow, numeric } from "@/components/ui/table";
import { formatBytes } from "./format";

const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

function kind(r: CleanupRecordDto) {
  if (r.dry_run) return "Preview";
  return r.trigger === "schedule" ? "Nightly" : "Manual";
}

/** The latest cleanups (times in UTC, like the cleanup time). */
export function CleanupRecords({ records }: { records: CleanupRecordDto[] }) {
  return (
    <Table variant="plain" density="compact" caption="Latest cleanups">
      <TableHeader columns={["Started (UTC)", "Kind", ...numeric(["Runs", "Results", "LLM calls", "Conversations", "Size"]), "Outcome"]} />
      <TableBody>
        {records.length === 0 && <TableEmpty colSpan={8}>No cleanup has run yet.</TableEmpty>}
        {records.map((r) => (
          <TableRow key={r.id}>
            <TableCell>{when.format(new Date(r.started_at))}</TableCell>
            <TableCell>{kind(r)}</TableCell>
            <TableCell className="text-right tabular-nums">{r.runs_deleted}</TableCell>
            <TableCell className="text-right tabular-nums">{r.results_deleted}</TableCell>
            <TableCell className="text-right tabular-nums">{r.llm_calls_deleted}</TableCell>
            <TableCell className="text-right tabular-nums">{r.conversations_deleted}</TableCell>
            <TableCell className="text-right tabular-nums">≈ {formatBytes(r.bytes_freed_estimate)}</TableCell>
            <TableCell>{r.error ? <span className="text-red-700">{r.error}</span> : r.completed_at ? "Done" : "Running"}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
