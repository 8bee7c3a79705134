import Link from "next/link";
import { Badge } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeader, TableRow, TableTitleCell } from "@/components/ui/table";
import type { SuiteListItem } from "@/lib/suites/dto";
import { scheduleSummary } from "./format";
import { PassRateSparkline } from "./pass-rate-sparkline";

/** The live suites of a workspace: name (→ suite page), agent, case counts, recent pass rates, schedule, enabled. */
export function SuiteTable({ workspaceId, suites, canEdit }: { workspaceId: string; suites: SuiteListItem[]; canEdit: boolean }) {
  return (
    <Table>
      <TableHeader columns={["Suite", "Agent", "Test cases", "Pass rate", "Schedule", "Status", { label: "Actions", srOnly: true }]} />
      <TableBody>
        {suites.map((s) => (
          <TableRow key={s.id} data-testid="suite-row">
            <TableTitleCell href={`/w/${workspaceId}/suites/${s.id}`} title={s.name} description={s.description} />
            <TableCell className="text-slate-700">{s.agent_name}</TableCell>
            <TableCell>
              <CaseCounts counts={s.case_counts} />
            </TableCell>
            <TableCell>
              <PassRateSparkline rates={s.recent_pass_rates} />
            </TableCell>
            <TableCell className="text-slate-700">{scheduleSummary(s)}</TableCell>
            <TableCell>{s.is_enabled ? <Badge tone="green">Enabled</Badge> : <Badge>Disabled</Badge>}</TableCell>
            <TableCell className="text-right">
              <Link
                href={`/w/${workspaceId}/suites/${s.id}/settings`}
                className="text-xs text-slate-600 hover:text-indigo-700 hover:underline"
              >
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
