import Link from "next/link";
import { signOutAction } from "@/lib/auth/actions";
import { roleLabels, type Role } from "@/lib/auth/roles";
import { WorkspaceSwitcher } from "./workspace-switcher";
import { NavLink } from "./nav-link";
import { ShellFrame } from "./shell-frame";
import { AlertsNavLink } from "./alerts-nav-link";
import { SessionKeepalive } from "@/components/auth/session-keepalive";
import { AlertBell } from "@/components/alerts/alert-bell";
import { ReviewNavLink } from "@/components/review/review-nav-link";

/** The id of every page's `<main>`: the skip link's target. */
export const MAIN_ID = "main-content";

function Logo({ href }: { href: string }) {
  return (
    <Link href={href} className="text-lg font-bold tracking-tight text-indigo-700">
      Assay
    </Link>
  );
}

/**
 * The app's frame around every workspace page (and the account and instance pages, in the
 * member's workspace): a skip link first, the sidebar (a menu on small screens), then `<main>`.
 */
export function AppShell({
  workspace,
  workspaces,
  role,
  userEmail,
  canCreateWorkspace = true,
  instanceAdmin = false,
  children,
}: {
  workspace: { id: string; name: string };
  workspaces: { id: string; name: string }[];
  role: Role;
  userEmail: string;
  canCreateWorkspace?: boolean;
  /** Shows the "Instance" item (instance-wide settings). */
  instanceAdmin?: boolean;
  children: React.ReactNode;
}) {
  const base = `/w/${workspace.id}`;
  return (
    <div className="min-h-screen md:flex">
      <a
        href={`#${MAIN_ID}`}
        className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium text-indigo-700 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to main content
      </a>
      <SessionKeepalive />
      <ShellFrame brand={<Logo href={base} />}>
        <div className="border-b border-slate-200 p-4">
          <div className="flex items-center justify-between">
            <Logo href={base} />
            <AlertBell workspaceId={workspace.id} />
          </div>
          <div className="mt-3">
            <WorkspaceSwitcher current={workspace.id} workspaces={workspaces} canCreate={canCreateWorkspace} />
          </div>
        </div>
        <nav aria-label="Main" className="flex-1 space-y-1 p-3 text-sm">
          <NavLink href={base} exact>
            Home
          </NavLink>
          <NavLink href={`${base}/suites`}>Suites</NavLink>
          <NavLink href={`${base}/runs`}>Runs</NavLink>
          <NavLink href={`${base}/traffic`}>Traffic</NavLink>
          <AlertsNavLink workspaceId={workspace.id} />
          <ReviewNavLink workspaceId={workspace.id} />
          <NavLink href={`${base}/agents`}>Agents</NavLink>
          <NavLink href={`${base}/model-configs`}>Model configurations</NavLink>
          <NavLink href={`${base}/settings`}>Workspace settings</NavLink>
          {instanceAdmin && <NavLink href="/instance">Instance</NavLink>}
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
      </ShellFrame>
      <main id={MAIN_ID} tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none md:px-8">
        {children}
      </main>
    </div>
  );
}
