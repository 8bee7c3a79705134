import Link from "next/link";
import type { ModelConfigJson } from "@/lib/model-configs/service";
import { Card, Badge } from "@/components/ui/card";
import { TestConnectionButton } from "./test-connection-button";
import { DeleteModelConfigButton } from "./delete-model-config-button";

type Row = ModelConfigJson & { usage: { agents: number; suites: number } };

export function ModelConfigTable({ workspaceId, configs, canManage }: { workspaceId: string; configs: Row[]; canManage: boolean }) {
  return (
    <Card className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="px-4 py-2 font-medium">Name</th>
            <th className="px-4 py-2 font-medium">Endpoint</th>
            <th className="px-4 py-2 font-medium">API key</th>
            <th className="px-4 py-2 font-medium">Used by</th>
            {canManage && <th className="px-4 py-2 font-medium">Actions</th>}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {configs.map((c) => (
            <tr key={c.id} data-testid="model-config-row" aria-label={c.name} className="align-top">
              <td className="px-4 py-3">
                <Link href={`/w/${workspaceId}/model-configs/${c.id}`} className="font-medium text-indigo-700 hover:underline">
                  {c.name}
                </Link>
              </td>
              <td className="px-4 py-3">
                <div className="font-mono text-xs text-slate-600 break-all">{c.base_url}</div>
                <div className="mt-0.5 text-slate-800">{c.model}</div>
              </td>
              <td className="px-4 py-3">{c.has_api_key ? <code className="text-slate-700">{c.api_key_hint}</code> : <Badge>none</Badge>}</td>
              <td className="px-4 py-3 text-slate-600">
                {c.usage.agents} agent{c.usage.agents === 1 ? "" : "s"}, {c.usage.suites} suite{c.usage.suites === 1 ? "" : "s"}
              </td>
              {canManage && (
                <td className="px-4 py-3">
                  <div className="flex flex-wrap items-start gap-2">
                    <TestConnectionButton workspaceId={workspaceId} configId={c.id} size="sm" />
                    <DeleteModelConfigButton workspaceId={workspaceId} config={c} usage={c.usage} />
                  </div>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
