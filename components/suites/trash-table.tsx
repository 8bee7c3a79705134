import { Card } from "@/components/ui/card";
import type { SuiteListItem } from "@/lib/suites/service";
import { RestoreSuiteButton } from "./restore-suite-button";

/** Deleted suites with when they were deleted and, for editors, a Restore button. */
export function TrashTable({ workspaceId, suites, canEdit }: { workspaceId: string; suites: SuiteListItem[]; canEdit: boolean }) {
  return (
    <Card className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="px-4 py-2 font-medium">Suite</th>
            <th className="px-4 py-2 font-medium">Agent</th>
            <th className="px-4 py-2 font-medium">Test cases</th>
            <th className="px-4 py-2 font-medium">Deleted</th>
            <th className="px-4 py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {suites.map((s) => {
            const total = s.case_counts.draft + s.case_counts.active + s.case_counts.archived;
            return (
              <tr key={s.id} data-testid="trash-row">
                <td className="px-4 py-3 font-medium text-slate-800">{s.name}</td>
                <td className="px-4 py-3 text-slate-700">{s.agent_name}</td>
                <td className="px-4 py-3 text-slate-700">{total}</td>
                <td className="px-4 py-3 text-slate-600">
                  <time dateTime={s.deleted_at ?? undefined}>{s.deleted_at ? new Date(s.deleted_at).toISOString().slice(0, 16).replace("T", " ") + " UTC" : ""}</time>
                </td>
                <td className="px-4 py-3 text-right">{canEdit && <RestoreSuiteButton workspaceId={workspaceId} suiteId={s.id} suiteName={s.name} />}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Card>
  );
}
