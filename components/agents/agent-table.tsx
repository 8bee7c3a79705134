import Link from "next/link";
import type { AgentListItem } from "@/lib/agents/loaders";
import { Badge, Card } from "@/components/ui/card";
import { DeleteAgentButton } from "./delete-agent-button";

export function AgentTable({ workspaceId, agents, canEdit }: { workspaceId: string; agents: AgentListItem[]; canEdit: boolean }) {
  return (
    <Card className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="px-4 py-2 font-medium">Name</th>
            <th className="px-4 py-2 font-medium">Kind</th>
            <th className="px-4 py-2 font-medium">Model / endpoint</th>
            <th className="px-4 py-2 font-medium">Tools</th>
            <th className="px-4 py-2 font-medium">Suites</th>
            {canEdit && <th className="px-4 py-2 font-medium"><span className="sr-only">Actions</span></th>}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {agents.map((a) => (
            <tr key={a.id} data-testid="agent-row" aria-label={a.name} className="align-top">
              <td className="px-4 py-3">
                <Link href={`/w/${workspaceId}/agents/${a.id}`} className="font-medium text-indigo-700 hover:underline">
                  {a.name}
                </Link>
                {a.description && <p className="mt-0.5 line-clamp-2 text-xs text-slate-500">{a.description}</p>}
              </td>
              <td className="px-4 py-3">
                <Badge tone={a.kind === "chat" ? "indigo" : "blue"}>{a.kind}</Badge>
              </td>
              <td className="px-4 py-3 text-slate-700">
                {a.kind === "chat" ? (a.modelConfigName ?? <span className="text-amber-700">No model configuration</span>) : <code className="break-all text-xs">{a.httpUrl}</code>}
              </td>
              <td className="px-4 py-3 text-slate-700">{a.kind === "chat" ? a.toolCount : "—"}</td>
              <td className="px-4 py-3 text-slate-700">{a.suiteCount}</td>
              {canEdit && (
                <td className="px-4 py-3 text-right">
                  <DeleteAgentButton workspaceId={workspaceId} agent={{ id: a.id, name: a.name }} suiteCount={a.suiteCount} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
