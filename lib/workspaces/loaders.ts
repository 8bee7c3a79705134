import "server-only";
import { currentUserId } from "@/lib/auth";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { getUser, normaliseEmail } from "@/lib/users/service";
import { getWorkspace, isSetupNeeded, listWorkspacesForUser, workspaceShell } from "./service";
import { listMembers } from "./members";
import { listInvitations, lookupInvitation, type InvitationLookup } from "./invitations";
import { canCreateWorkspace, canCreateWorkspaceWith, WORKSPACE_CREATION_REFUSED } from "./creation";
import { scopedLoader } from "@/lib/tenant-scope";
import { isInstanceAdmin } from "@/lib/retention/service";

type ValidInvitation = Extract<InvitationLookup, { state: "valid" }>;

/** Page loaders for the workspace shell, the workspace settings pages, the home redirect and invite links. */

/** Where `/` sends the visitor: setup on an empty install, sign-in, the first workspace, or creating one. */
export async function loadHomeTarget(): Promise<string> {
  if (await isSetupNeeded()) return "/setup";
  const userId = await currentUserId();
  if (!userId) return "/sign-in";
  const workspaces = await listWorkspacesForUser(userId);
  return workspaces[0] ? `/w/${workspaces[0].id}` : "/workspaces/new";
}

/**
 * The app shell around every workspace page: the workspace, the member's other workspaces, their
 * email, whether they may create one and whether they administer the instance (its "Instance" item).
 */
export async function loadWorkspaceShell(ctx: WorkspaceContext) {
  const [{ workspace, workspaces, email, adminOf }, instanceAdmin] = await Promise.all([workspaceShell(ctx), isInstanceAdmin(ctx)]);
  return {
    workspace,
    workspaces,
    role: ctx.role,
    userEmail: email ?? "",
    canCreateWorkspace: canCreateWorkspaceWith(adminOf),
    instanceAdmin,
  };
}

/** The workspace whose shell frames the pages outside a workspace (account, instance): the member's first one, or null without any. */
export async function loadShellWorkspaceId(userId: string): Promise<string | null> {
  const workspaces = await listWorkspacesForUser(userId);
  return workspaces[0]?.id ?? null;
}

/** New workspace: the form, or why this user may not create one (ASSAY_WORKSPACE_CREATION). */
export async function loadNewWorkspacePage(userId: string) {
  return (await canCreateWorkspace(userId))
    ? ({ canCreate: true } as const)
    : ({ canCreate: false, reason: WORKSPACE_CREATION_REFUSED } as const);
}

/** Settings → General. */
async function loadGeneralSettingsPageUnscoped(ctx: WorkspaceContext) {
  return { workspace: await getWorkspace(ctx), canEdit: hasRole(ctx.role, "admin") };
}

/** Settings → Members: every member sees the list; admins also get the pending invitations. */
async function loadMembersPageUnscoped(ctx: WorkspaceContext) {
  const isAdmin = hasRole(ctx.role, "admin");
  const [members, invitations] = await Promise.all([listMembers(ctx), isAdmin ? listInvitations(ctx) : Promise.resolve([])]);
  return { members, invitations, isAdmin, actorRole: isAdmin ? ctx.role : "viewer", actorUserId: ctx.userId ?? "" };
}

/**
 * An invite link, as the visitor may act on it: unusable (invalid, expired, used), signed out
 * (sign in, or create an account with the invited address: the same page whether or not the
 * address has an account, so the link does not tell), signed in with another address, or join.
 */
export type InvitePage =
  | { view: "unavailable"; reason: "invalid" | "expired" | "used" }
  | { view: "signed-out" | "join"; invitation: ValidInvitation }
  | { view: "wrong-user"; invitation: ValidInvitation; userEmail: string };

export async function loadInvitePage(token: string): Promise<InvitePage> {
  const invitation = await lookupInvitation(token);
  if (invitation.state !== "valid") return { view: "unavailable", reason: invitation.state };
  const userId = await currentUserId();
  const user = userId ? await getUser(userId) : null;
  if (!user) return { view: "signed-out", invitation };
  if (normaliseEmail(user.email) !== invitation.email) return { view: "wrong-user", invitation, userEmail: user.email };
  return { view: "join", invitation };
}

// Each page loader runs its queries in the workspace's row-level scope (lib/tenant-scope.ts).
export const loadGeneralSettingsPage = scopedLoader(loadGeneralSettingsPageUnscoped);
export const loadMembersPage = scopedLoader(loadMembersPageUnscoped);
