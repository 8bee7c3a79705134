import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadModelConfigPage } from "@/lib/model-configs/loaders";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { ModelConfigForm } from "@/components/model-configs/model-config-form";
import { ModelConfigDetails } from "@/components/model-configs/model-config-details";
import { TestConnectionButton } from "@/components/model-configs/test-connection-button";
import { DeleteModelConfigButton } from "@/components/model-configs/delete-model-config-button";
import { ReadOnlyNotice } from "@/components/model-configs/read-only-notice";
import type { WorkspaceParams } from "@/lib/pages/props";

export const metadata = { title: "Model configuration" };

export default async function ModelConfigPage({ params }: WorkspaceParams<{ configId: string }>) {
  const { workspaceId, configId } = await params;
  const ctx = await pageContext(workspaceId);
  const page = await orNotFound(loadModelConfigPage(ctx, configId));
  const list = `/w/${workspaceId}/model-configs`;
  return (
    <div>
      <PageHeader
        title={page.config.name}
        back={{ href: list, label: "Model configurations" }}
        actions={
          page.canManage ? (
            <DeleteModelConfigButton workspaceId={workspaceId} config={page.config} usage={page.usage} redirectTo={list} />
          ) : null
        }
      />
      <div className="space-y-4">
        {page.canManage && (
          <Card className="p-5">
            <h2 className="mb-2 text-base font-semibold">Connection</h2>
            <TestConnectionButton workspaceId={workspaceId} configId={page.config.id} />
          </Card>
        )}
        <Card className="p-5">
          {page.canManage ? (
            <ModelConfigForm workspaceId={workspaceId} config={page.config} />
          ) : (
            <div className="space-y-4">
              <ReadOnlyNotice>Only workspace admins can change model configurations.</ReadOnlyNotice>
              <ModelConfigDetails config={page.config} />
            </div>
          )}
        </Card>
      </div>
    </div>
  );
}
