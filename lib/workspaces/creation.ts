/**
 * Who may create a workspace: an instance setting, ASSAY_WORKSPACE_CREATION. "admins" (the
 * default) lets owners and admins of any existing workspace create more; "anyone" lets every
 * signed-in user. First-run setup and the headless init create the first one regardless. Called
 * by createWorkspaceAction (the guard), the new-workspace page and the workspace switcher.
 */
import "server-only";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { ForbiddenError } from "@/lib/errors";

export const WORKSPACE_CREATION_REFUSED =
  "On this Assay instance only owners and admins of an existing workspace can create workspaces. Ask one of them to create it or to invite you.";

export async function canCreateWorkspace(userId: string, policy: "anyone" | "admins" = env.ASSAY_WORKSPACE_CREATION): Promise<boolean> {
  if (policy === "anyone") return true;
  const adminOf = await db.membership.count({ where: { userId, role: { in: ["owner", "admin"] } } });
  return adminOf > 0;
}

/** canCreateWorkspace for a user who owns or administers `adminOf` workspaces (the shell reads that count with its other reads). */
export function canCreateWorkspaceWith(adminOf: number, policy: "anyone" | "admins" = env.ASSAY_WORKSPACE_CREATION): boolean {
  return policy === "anyone" || adminOf > 0;
}

export async function requireCanCreateWorkspace(userId: string): Promise<void> {
  if (!(await canCreateWorkspace(userId))) throw new ForbiddenError(WORKSPACE_CREATION_REFUSED);
}
