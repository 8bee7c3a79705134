import { Table, TableBody, TableCell, TableHeader, TableRow } from "@/components/ui/table";
import type { SuiteListItem } from "@/lib/suites/dto";
import { RestoreSuiteButton } from "./restore-suite-button";

/** Deleted suites with when they were deleted and, for editors, a Restore button. */
export function TrashTable({ workspaceId, suites, canEdit }: { workspaceId: string; suites: SuiteListItem[]; canEdit: boolean }) {
  return (
    <Table>
      <TableHeader columns={["Suite", "Agent", "Test cases", "Deleted", { label: "Actions", srOnly: true }]} />
      <TableBody>
        {suites.map((s) => (
          <TableRow key={s.id} data-testid="trash-row">
            <TableCell className="font-medium text-slate-800">{s.name}</TableCell>
            <TableCell className="text-slate-700">{s.agent_name}</TableCell>
            <TableCell className="text-slate-700">{s.case_counts.draft + s.case_counts.active + s.case_counts.archived}</TableCell>
            <TableCell className="text-slate-600">
              <time dateTime={s.deleted_at ?? undefined}>
                {s.deleted_at ? new Date(s.deleted_at).toISOString().slice(0, 16).replace("T", " ") + " UTC" : ""}
              </time>
            </TableCell>
            <TableCell className="text-right">
              {canEdit && <RestoreSuiteButton workspaceId={workspaceId} suiteId={s.id} suiteName={s.name} />}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
