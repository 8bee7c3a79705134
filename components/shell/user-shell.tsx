import { pageContext } from "@/lib/auth/context";
import { loadShellWorkspaceId, loadWorkspaceShell } from "@/lib/workspaces/loaders";
import { AppShell } from "./app-shell";

/**
 * The app shell for a page that belongs to the user rather than a workspace (account, instance):
 * framed by the member's first workspace, so the navigation stays one click away. Without any
 * workspace the page renders `fallback` (its own frame).
 */
export async function UserShell({ userId, fallback, children }: { userId: string; fallback: React.ReactNode; children: React.ReactNode }) {
  const workspaceId = await loadShellWorkspaceId(userId);
  if (!workspaceId) return fallback;
  const shell = await loadWorkspaceShell(await pageContext(workspaceId));
  return <AppShell {...shell}>{children}</AppShell>;
}
