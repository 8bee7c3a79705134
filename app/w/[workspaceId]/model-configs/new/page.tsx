import { pageContext } from "@/lib/auth/context";
import { loadNewModelConfigPage } from "@/lib/model-configs/loaders";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { ModelConfigForm } from "@/components/model-configs/model-config-form";
import { ReadOnlyNotice } from "@/components/model-configs/read-only-notice";
import type { WorkspaceParams } from "@/lib/pages/props";

export const metadata = { title: "New model configuration" };

export default async function NewModelConfigPage({ params }: WorkspaceParams) {
  const { workspaceId } = await params;
  const ctx = await pageContext(workspaceId);
  const page = await loadNewModelConfigPage(ctx);
  return (
    <div>
      <PageHeader title="New model configuration" back={{ href: `/w/${workspaceId}/model-configs`, label: "Model configurations" }} />
      {page.canManage ? (
        <Card className="p-5">
          <ModelConfigForm workspaceId={workspaceId} />
        </Card>
      ) : (
        <ReadOnlyNotice>Only workspace admins can add model configurations.</ReadOnlyNotice>
      )}
    </div>
  );
}
