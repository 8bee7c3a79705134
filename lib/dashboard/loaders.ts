import "server-only";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { hasRole } from "@/lib/auth/roles";
import { scopedLoader } from "@/lib/tenant-scope";
import { getDashboard } from "./service";

/** The workspace's home: the dashboard's panels, and whether the member may create a suite or load the demo (the empty state's offers). */
async function loadDashboardPageUnscoped(ctx: WorkspaceContext) {
  const dashboard = await getDashboard(ctx);
  return { dashboard, canEdit: hasRole(ctx.role, "editor"), canLoadDemo: hasRole(ctx.role, "admin") };
}

// The page loader runs its queries in the workspace's row-level scope (lib/tenant-scope.ts).
export const loadDashboardPage = scopedLoader(loadDashboardPageUnscoped);
