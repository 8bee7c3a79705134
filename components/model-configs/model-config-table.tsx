import type { ModelConfigListItem } from "@/lib/model-configs/dto";
import { Badge } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeader, TableRow, TableTitleCell } from "@/components/ui/table";
import { TestConnectionButton } from "./test-connection-button";
import { DeleteModelConfigButton } from "./delete-model-config-button";

export function ModelConfigTable({
  workspaceId,
  configs,
  canManage,
}: {
  workspaceId: string;
  configs: ModelConfigListItem[];
  canManage: boolean;
}) {
  return (
    <Table>
      <TableHeader columns={["Name", "Endpoint", "API key", "Used by", ...(canManage ? ["Actions"] : [])]} />
      <TableBody>
        {configs.map((c) => (
          <TableRow key={c.id} data-testid="model-config-row" aria-label={c.name} className="align-top">
            <TableTitleCell href={`/w/${workspaceId}/model-configs/${c.id}`} title={c.name} />
            <TableCell>
              <div className="font-mono text-xs break-all text-slate-600">{c.base_url}</div>
              <div className="mt-0.5 text-slate-800">{c.model}</div>
            </TableCell>
            <TableCell>{c.has_api_key ? <code className="text-slate-700">{c.api_key_hint}</code> : <Badge>none</Badge>}</TableCell>
            <TableCell className="text-slate-600">
              {c.usage.agents} agent{c.usage.agents === 1 ? "" : "s"}, {c.usage.suites} suite{c.usage.suites === 1 ? "" : "s"}
            </TableCell>
            {canManage && (
              <TableCell>
                <div className="flex flex-wrap items-start gap-2">
                  <TestConnectionButton workspaceId={workspaceId} configId={c.id} size="sm" />
                  <DeleteModelConfigButton workspaceId={workspaceId} config={c} usage={c.usage} />
                </div>
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
