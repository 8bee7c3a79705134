import type { AgentListItem } from "@/lib/agents/dto";
import { Badge } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeader, TableRow, TableTitleCell } from "@/components/ui/table";
import { DeleteAgentButton } from "./delete-agent-button";

export function AgentTable({ workspaceId, agents, canEdit }: { workspaceId: string; agents: AgentListItem[]; canEdit: boolean }) {
  return (
    <Table>
      <TableHeader
        columns={["Name", "Kind", "Model / endpoint", "Tools", "Suites", ...(canEdit ? [{ label: "Actions", srOnly: true }] : [])]}
      />
      <TableBody>
        {agents.map((a) => (
          <TableRow key={a.id} data-testid="agent-row" aria-label={a.name} className="align-top">
            <TableTitleCell href={`/w/${workspaceId}/agents/${a.id}`} title={a.name} description={a.description} />
            <TableCell>
              <Badge tone={a.kind === "chat" ? "indigo" : "blue"}>{a.kind}</Badge>
            </TableCell>
            <TableCell className="text-slate-700">
              {a.kind === "chat" ? (
                (a.modelConfigName ?? <span className="text-amber-700">No model configuration</span>)
              ) : (
                <code className="text-xs break-all">{a.httpUrl}</code>
              )}
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
