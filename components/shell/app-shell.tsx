import Link from "next/link";
import { signOutAction } from "@/lib/auth/actions";
import { roleLabels, type Role } from "@/lib/auth/roles";
import { WorkspaceSwitcher } from "./workspace-switcher";
import { NavLink } from "./nav-link";
import { SessionKeepalive } from "@/components/auth/session-keepalive";
import { AlertBell } from "@/components/alerts/alert-bell";
import { ReviewNavLink } from "@/components/review/review-nav-link";

export function AppShell({
  workspace,
  workspaces,
  role,
  userEmail,
  canCreateWorkspace = true,
  children,
}: {
  workspace: { id: string; name: string };
  workspaces: { id: string; name: string }[];
  role: Role;
  userEmail: string;
  canCreateWorkspace?: boolean;
  children: React.ReactNode;
}) {
  const base = `/w/${workspace.id}`;
  return (
    <div className="flex min-h-screen">
      <SessionKeepalive />
      <aside className="flex w-60 shrink-0 flex-col border-r border-slate-200 bg-white">
        <div className="border-b border-slate-200 p-4">
          <div className="flex items-center justify-between">
            <Link href={base} className="text-lg font-bold tracking-tight text-indigo-700">
              Assay
            </Link>
            <AlertBell workspaceId={workspace.id} />
          </div>
          <div className="mt-3">
            <WorkspaceSwitcher current={workspace.id} workspaces={workspaces} canCreate={canCreateWorkspace} />
          </div>
        </div>
        <nav aria-label="Main" className="flex-1 space-y-1 p-3 text-sm">
          <NavLink href={`${base}/suites`}>Suites</NavLink>
          <ReviewNavLink workspaceId={workspace.id} />
          <NavLink href={`${base}/agents`}>Agents</NavLink>
          <NavLink href={`${base}/model-configs`}>Model configurations</NavLink>
          <NavLink href={`${base}/settings`}>Workspace settings</NavLink>
        </nav>
        <div className="border-t border-slate-200 p-4 text-xs text-slate-600">
          <p className="truncate" title={userEmail}>
            {userEmail}
          </p>
          <p className="mt-0.5">{roleLabels[role]}</p>
          <div className="mt-2 flex flex-wrap gap-x-3 gap-y-1">
            <Link href="/account" className="text-indigo-700 hover:underline">
              Account
            </Link>
            {/* A plain link: the reference is a route handler's HTML page, not an app route. */}
            <a href="/api/docs" className="text-indigo-700 hover:underline">
              API reference
            </a>
            <form action={signOutAction}>
              <button type="submit" className="text-indigo-700 hover:underline">
                Sign out
              </button>
            </form>
          </div>
        </div>
      </aside>
      <main className="min-w-0 flex-1 px-8 py-6">{children}</main>
    </div>
  );
}
