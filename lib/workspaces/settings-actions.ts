"use server";
import { z } from "zod";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { auth, signIn } from "@/lib/auth";
import { UnauthorizedError, zodIssues } from "@/lib/errors";
import { actionError, workspaceAction, type ActionResult } from "@/lib/actions/safe-action";
import { createWorkspace, updateWorkspaceSettings } from "@/lib/workspaces/service";
import { requireCanCreateWorkspace } from "@/lib/workspaces/creation";
import { requestIp } from "@/lib/auth/client-ip";
import { changeMemberRole, leaveWorkspace, removeMember } from "@/lib/workspaces/members";
import { acceptInvitationAsUser, acceptInvitationWithNewAccount, inviteMember, revokeInvitation } from "@/lib/workspaces/invitations";
import {
  acceptInviteInput,
  inviteInput,
  joinInviteInput,
  memberRef,
  memberRoleInput,
  rowRef,
  workspaceInput,
  workspaceSettingsInput,
  type AcceptInviteInput,
  type WorkspaceInput,
} from "@/lib/workspaces/schemas";

function refreshSettings(workspaceId: string) {
  revalidatePath(`/w/${workspaceId}/settings`, "layout");
}

export const updateWorkspaceSettingsAction = workspaceAction(workspaceSettingsInput, "admin", async (input, ctx) => {
  const ws = await updateWorkspaceSettings(ctx, input);
  // The name shows in the sidebar of every page of the workspace.
  revalidatePath(`/w/${ctx.workspaceId}`, "layout");
  return ws;
});

export const inviteMemberAction = workspaceAction(inviteInput, "admin", async (input, ctx) => {
  const result = await inviteMember(ctx, input);
  refreshSettings(ctx.workspaceId);
  return result;
});

export const revokeInvitationAction = workspaceAction(rowRef, "admin", async ({ id }, ctx) => {
  await revokeInvitation(ctx, id);
  refreshSettings(ctx.workspaceId);
  return null;
});

export const changeMemberRoleAction = workspaceAction(memberRoleInput, "admin", async ({ userId, role }, ctx) => {
  const member = await changeMemberRole(ctx, userId, role);
  refreshSettings(ctx.workspaceId);
  return member;
});

export const removeMemberAction = workspaceAction(memberRef, "admin", async ({ userId }, ctx) => {
  await removeMember(ctx, userId);
  refreshSettings(ctx.workspaceId);
  return null;
});

export const leaveWorkspaceAction = workspaceAction(z.object({}), "viewer", async (_input, ctx) => {
  await leaveWorkspace(ctx);
  revalidatePath("/", "layout");
  redirect("/");
});

async function signedInUserId(): Promise<string> {
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) throw new UnauthorizedError("Sign in first");
  return userId;
}

/** Creates another workspace (if ASSAY_WORKSPACE_CREATION allows this user); its creator becomes the owner. */
export async function createWorkspaceAction(raw: WorkspaceInput): Promise<ActionResult<never>> {
  const parsed = workspaceInput.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Please fix the highlighted fields", issues: zodIssues(parsed.error) };
  let workspaceId: string;
  try {
    const userId = await signedInUserId();
    await requireCanCreateWorkspace(userId);
    workspaceId = (await createWorkspace(userId, parsed.data.name)).id;
  } catch (err) {
    return actionError(err);
  }
  revalidatePath("/", "layout");
  redirect(`/w/${workspaceId}`);
}

/** Signed out: create the invited account, join the workspace and sign in. */
export async function acceptInvitationAction(raw: AcceptInviteInput): Promise<ActionResult<never>> {
  const parsed = acceptInviteInput.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Please fix the highlighted fields", issues: zodIssues(parsed.error) };
  let workspaceId: string;
  try {
    // Rate-limited per IP and per invited address, and checked before the password is hashed.
    const accepted = await acceptInvitationWithNewAccount(parsed.data, { ip: await requestIp() });
    workspaceId = accepted.workspaceId;
    await signIn("credentials", { email: accepted.email, password: parsed.data.password, redirect: false });
  } catch (err) {
    return actionError(err);
  }
  redirect(`/w/${workspaceId}`);
}

/** Signed in as the invited address: join the workspace. */
export async function joinInvitationAction(raw: { token: string }): Promise<ActionResult<never>> {
  const parsed = joinInviteInput.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "This invitation link is invalid", issues: zodIssues(parsed.error) };
  let workspaceId: string;
  try {
    const userId = await signedInUserId();
    workspaceId = (await acceptInvitationAsUser(userId, parsed.data.token)).workspaceId;
  } catch (err) {
    return actionError(err);
  }
  revalidatePath("/", "layout");
  redirect(`/w/${workspaceId}`);
}
