import Link from "next/link";
import { pageContext } from "@/lib/auth/context";
import { loadModelConfigsPage } from "@/lib/model-configs/loaders";
import { buttonClass } from "@/components/ui/button";
import { ListPage } from "@/components/ui/list-page";
import { ModelConfigTable } from "@/components/model-configs/model-config-table";
import type { WorkspacePageProps } from "@/lib/pages/props";

export const metadata = { title: "Model configurations" };

const DESCRIPTION =
  "OpenAI-compatible endpoints used by chat agents, the judge and the simulated user. Admins manage them; API keys are stored encrypted and never shown again.";

export default async function ModelConfigsPage({ params, searchParams }: WorkspacePageProps<Record<never, string>, { cursor?: string }>) {
  const { workspaceId } = await params;
  const { cursor } = await searchParams;
  const ctx = await pageContext(workspaceId);
  const page = await loadModelConfigsPage(ctx, cursor);
  const base = `/w/${workspaceId}/model-configs`;
  const newButton = page.canManage ? (
    <Link href={`${base}/new`} className={buttonClass()}>
      New model configuration
    </Link>
  ) : null;
  const hint = page.canManage
    ? "Add an endpoint (OpenAI, Azure, Ollama, vLLM, LM Studio…) to create chat agents."
    : "Ask a workspace admin to add one.";
  return (
    <ListPage
      header={{ title: "Model configurations", description: DESCRIPTION, actions: newButton }}
      empty={page.configs.length === 0 && !cursor ? { title: "No model configurations yet", description: hint, action: newButton } : null}
      pagination={{ base, cursor, nextCursor: page.nextCursor }}
    >
      <ModelConfigTable workspaceId={workspaceId} configs={page.configs} canManage={page.canManage} />
    </ListPage>
  );
}
