import { notFound } from "next/navigation";
import { pageContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/errors";
import { getUser } from "@/lib/users/service";
import { getWorkspace, listWorkspacesForUser } from "@/lib/workspaces/service";
import { AppShell } from "@/components/shell/app-shell";

export default async function WorkspaceLayout({ children, params }: { children: React.ReactNode; params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const ctx = await pageContext(workspaceId).catch((err) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
  const [workspace, workspaces, user] = await Promise.all([getWorkspace(ctx), listWorkspacesForUser(ctx.userId!), getUser(ctx.userId!)]);
  return (
    <AppShell workspace={workspace} workspaces={workspaces} role={ctx.role} userEmail={user?.email ?? ""}>
      {children}
    </AppShell>
  );
}
