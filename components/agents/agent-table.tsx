import Link from "next/link";
import type { AgentListItem } from "@/lib/agents/dto";
import { Badge } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { DeleteAgentButton } from "./delete-agent-button";

export function AgentTable({ workspaceId, agents, canEdit }: { workspaceId: string; agents: AgentListItem[]; canEdit: boolean }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Kind</TableHead>
          <TableHead>Model / endpoint</TableHead>
          <TableHead>Tools</TableHead>
          <TableHead>Suites</TableHead>
          {canEdit && <TableHead srLabel="Actions" />}
        </TableRow>
      </TableHeader>
      <TableBody>
        {agents.map((a) => (
          <TableRow key={a.id} data-testid="agent-row" aria-label={a.name} className="align-top">
            <TableCell>
              <Link href={`/w/${workspaceId}/agents/${a.id}`} className="font-medium text-indigo-700 hover:underline">
                {a.name}
              </Link>
              {a.description && <p className="mt-0.5 line-clamp-2 text-xs text-slate-500">{a.description}</p>}
            </TableCell>
            <TableCell>
              <Badge tone={a.kind === "chat" ? "indigo" : "blue"}>{a.kind}</Badge>
            </TableCell>
            <TableCell className="text-slate-700">
              {a.kind === "chat" ? (a.modelConfigName ?? <span className="text-amber-700">No model configuration</span>) : <code className="break-all text-xs">{a.httpUrl}</code>}
            </TableCell>
            <TableCell className="text-slate-700">{a.kind === "chat" ? a.toolCount : "—"}</TableCell>
            <TableCell className="text-slate-700">{a.suiteCount}</TableCell>
            {canEdit && (
              <TableCell className="text-right">
                <DeleteAgentButton workspaceId={workspaceId} agent={{ id: a.id, name: a.name }} suiteCount={a.suiteCount} />
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
