import Link from "next/link";
import { Badge, Card } from "@/components/ui/card";
import type { SuiteListItem } from "@/lib/suites/service";
import { scheduleSummary } from "./format";

/** The live suites of a workspace: name (→ suite page), agent, case counts, schedule, enabled. */
export function SuiteTable({ workspaceId, suites, canEdit }: { workspaceId: string; suites: SuiteListItem[]; canEdit: boolean }) {
  return (
    <Card className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="px-4 py-2 font-medium">Suite</th>
            <th className="px-4 py-2 font-medium">Agent</th>
            <th className="px-4 py-2 font-medium">Test cases</th>
            <th className="px-4 py-2 font-medium">Schedule</th>
            <th className="px-4 py-2 font-medium">Status</th>
            <th className="px-4 py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {suites.map((s) => (
            <tr key={s.id} data-testid="suite-row">
              <td className="px-4 py-3">
                <Link href={`/w/${workspaceId}/suites/${s.id}`} className="font-medium text-indigo-700 hover:underline">
                  {s.name}
                </Link>
                {s.description && <p className="mt-0.5 line-clamp-1 text-xs text-slate-500">{s.description}</p>}
              </td>
              <td className="px-4 py-3 text-slate-700">{s.agent_name}</td>
              <td className="px-4 py-3">
                <CaseCounts counts={s.case_counts} />
              </td>
              <td className="px-4 py-3 text-slate-700">{scheduleSummary(s)}</td>
              <td className="px-4 py-3">{s.is_enabled ? <Badge tone="green">Enabled</Badge> : <Badge>Disabled</Badge>}</td>
              <td className="px-4 py-3 text-right">
                <Link href={`/w/${workspaceId}/suites/${s.id}/settings`} className="text-xs text-slate-600 hover:text-indigo-700 hover:underline">
                  {canEdit ? "Settings" : "Details"}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function CaseCounts({ counts }: { counts: SuiteListItem["case_counts"] }) {
  const total = counts.draft + counts.active + counts.archived;
  if (total === 0) return <span className="text-xs text-slate-400">No cases</span>;
  return (
    <span className="flex flex-wrap gap-1" aria-label={`${counts.active} active, ${counts.draft} draft, ${counts.archived} archived`}>
      <Badge tone="green">{counts.active} active</Badge>
      <Badge tone="amber">{counts.draft} draft</Badge>
      <Badge>{counts.archived} archived</Badge>
    </span>
  );
}
