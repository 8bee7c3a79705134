import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadWorkspaceShell } from "@/lib/workspaces/loaders";
import { AppShell } from "@/components/shell/app-shell";
import type { WorkspaceParams } from "@/lib/pages/props";

export default async function WorkspaceLayout({ children, params }: WorkspaceParams & { children: React.ReactNode }) {
  const { workspaceId } = await params;
  const ctx = await orNotFound(pageContext(workspaceId));
  const shell = await loadWorkspaceShell(ctx);
  return <AppShell {...shell}>{children}</AppShell>;
}
