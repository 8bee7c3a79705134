import Link from "next/link";
import { Badge } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { SuiteListItem } from "@/lib/suites/service";
import { scheduleSummary } from "./format";

/** The live suites of a workspace: name (→ suite page), agent, case counts, schedule, enabled. */
export function SuiteTable({ workspaceId, suites, canEdit }: { workspaceId: string; suites: SuiteListItem[]; canEdit: boolean }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Suite</TableHead>
          <TableHead>Agent</TableHead>
          <TableHead>Test cases</TableHead>
          <TableHead>Schedule</TableHead>
          <TableHead>Status</TableHead>
          <TableHead srLabel="Actions" />
        </TableRow>
      </TableHeader>
      <TableBody>
        {suites.map((s) => (
          <TableRow key={s.id} data-testid="suite-row">
            <TableCell>
              <Link href={`/w/${workspaceId}/suites/${s.id}`} className="font-medium text-indigo-700 hover:underline">
                {s.name}
              </Link>
              {s.description && <p className="mt-0.5 line-clamp-1 text-xs text-slate-500">{s.description}</p>}
            </TableCell>
            <TableCell className="text-slate-700">{s.agent_name}</TableCell>
            <TableCell>
              <CaseCounts counts={s.case_counts} />
            </TableCell>
            <TableCell className="text-slate-700">{scheduleSummary(s)}</TableCell>
            <TableCell>{s.is_enabled ? <Badge tone="green">Enabled</Badge> : <Badge>Disabled</Badge>}</TableCell>
            <TableCell className="text-right">
              <Link href={`/w/${workspaceId}/suites/${s.id}/settings`} className="text-xs text-slate-600 hover:text-indigo-700 hover:underline">
                {canEdit ? "Settings" : "Details"}
              </Link>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function CaseCounts({ counts }: { counts: SuiteListItem["case_counts"] }) {
  const total = counts.draft + counts.active + counts.archived;
  if (total === 0) return <span className="text-xs text-slate-500">No cases</span>;
  return (
    <span className="flex flex-wrap gap-1" aria-label={`${counts.active} active, ${counts.draft} draft, ${counts.archived} archived`}>
      <Badge tone="green">{counts.active} active</Badge>
      <Badge tone="amber">{counts.draft} draft</Badge>
      <Badge>{counts.archived} archived</Badge>
    </span>
  );
}
